# A million-key Hudi 1.2.0 table with a record-level index, for BenchmarkKeyLookup (model/key_bench_test.go); written to /tmp, never committed.
# Run: PYSPARK_PYTHON=… python bench_key_table.py /tmp/key-work/bench1m <hudi-spark3.5-bundle 1.2.0 jar>
import sys
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
path = sys.argv[1]
spark = (SparkSession.builder.master("local[2]").config("spark.jars", sys.argv[2])
         .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
         .config("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension")
         .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.hudi.catalog.HoodieCatalog")
         .config("spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar")
         .config("spark.ui.enabled", "false").config("spark.driver.memory", "3g").getOrCreate())
opts = {"hoodie.table.name": "bench", "hoodie.datasource.write.recordkey.field": "id",
        "hoodie.datasource.write.partitionpath.field": "dt", "hoodie.datasource.write.precombine.field": "ts",
        "hoodie.datasource.write.keygenerator.class": "org.apache.hudi.keygen.SimpleKeyGenerator",
        "hoodie.metadata.enable": "true", "hoodie.metadata.record.index.enable": "true", "hoodie.index.type": "RECORD_INDEX",
        "hoodie.bulkinsert.shuffle.parallelism": "4", "hoodie.bulkinsert.sort.mode": "NONE", "hoodie.upsert.shuffle.parallelism": "2"}
df = spark.range(0, 1000000).select(F.col("id").cast("string").alias("id"), F.concat(F.lit("n"), F.col("id")).alias("name"),
                                     F.lit(0).cast("long").alias("ts"), F.concat(F.lit("2024-01-0"), (F.col("id") % 8 + 1).cast("string")).alias("dt"))
df.repartition(4).write.format("hudi").options(**opts).option("hoodie.datasource.write.operation", "bulk_insert").mode("overwrite").save(path)
upd = df.where(F.col("id").cast("long") % 1000 == 0).withColumn("name", F.concat(F.lit("x"), F.col("id"))).withColumn("ts", F.lit(1).cast("long"))
upd.write.format("hudi").options(**opts).option("hoodie.datasource.write.operation", "upsert").mode("append").save(path)
print("rows", spark.read.format("hudi").load(path).count())
spark.stop()
