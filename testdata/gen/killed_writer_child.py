#!/usr/bin/env python3
"""Child of generate.py's killed-writer scenario: one Spark application doing one upsert, meant to be
SIGKILLed by its parent once the write's .inflight file exists. Never run on its own."""
import json
import sys

from pyspark.sql import SparkSession
from pyspark.sql.types import StructType, StructField, IntegerType, LongType, StringType

bundle, path, opts = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
spark = (SparkSession.builder.master("local[2]").appName("hudiscope-gen-killed-writer")
         .config("spark.jars", bundle)
         .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
         .config("spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar")
         .config("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension")
         .config("spark.sql.shuffle.partitions", "2").config("spark.ui.enabled", "false").getOrCreate())
schema = StructType([StructField("id", IntegerType(), False), StructField("name", StringType(), True),
                     StructField("ts", LongType(), False)])
rows = [(2, "killed_2", 9), (5, "killed_5", 9)]
spark.createDataFrame(rows, schema).write.format("hudi").options(**opts).mode("append").save(path)
print("child: write COMPLETED (was not killed in time)", flush=True)
