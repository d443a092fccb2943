"""Seeds a moto server (S3 + Glue) for scripts/glue-it.sh: fixture tables in the bucket `lake`
and Glue databases whose tables point at them, with the catalog parameters Hudi's meta sync
writes (HoodieMetaSyncOperations: last_commit_time_sync, last_commit_completion_time_sync).

usage: seed.py ENDPOINT REPO_ROOT
"""
import sys
import zipfile

import boto3

endpoint, repo = sys.argv[1], sys.argv[2]
kw = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="AKIDTEST", aws_secret_access_key="SECRETTEST")
s3 = boto3.client("s3", **kw)
glue = boto3.client("glue", **kw)
s3.create_bucket(Bucket="lake")


def upload(fixture, prefix):
    """Uploads the table of testdata/fixtures/FIXTURE/table.zip under s3://lake/PREFIX."""
    with zipfile.ZipFile(f"{repo}/testdata/fixtures/{fixture}/table.zip") as z:
        for info in z.infolist():
            if info.is_dir() or info.filename.startswith("__MACOSX/"):
                continue
            rel = info.filename.split("/", 1)[1]  # below the zip's top folder
            s3.put_object(Bucket="lake", Key=f"{prefix}/{rel}", Body=z.read(info))
    return f"s3://lake/{prefix}"


HUDI_IN = "org.apache.hudi.hadoop.HoodieParquetInputFormat"
HUDI_RT = "org.apache.hudi.hadoop.realtime.HoodieParquetRealtimeInputFormat"
SERDE = {"SerializationLibrary": "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"}


def table(db, name, location, input_format, params, part_keys=(), parts=()):
    sd = {"Columns": [{"Name": "id", "Type": "string"}], "Location": location, "InputFormat": input_format,
          "OutputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat", "SerdeInfo": SERDE}
    glue.create_table(DatabaseName=db, TableInput={
        "Name": name, "TableType": "EXTERNAL_TABLE", "StorageDescriptor": sd, "Parameters": params,
        "PartitionKeys": [{"Name": k, "Type": "string"} for k in part_keys]})
    for values in parts:
        psd = dict(sd, Location=location + "/" + "/".join(values))
        glue.create_partition(DatabaseName=db, TableName=name, PartitionInput={"Values": list(values), "StorageDescriptor": psd})


for db in ("sales", "ops"):
    glue.create_database(DatabaseInput={"Name": db})

# cow-services-1.2.0: partitions 2024-01-01..03; completed writes ... 20261129162031337 (commit),
# 20261129162054490 (replacecommit), 20261129162134323 (commit, the latest).
orders = upload("cow-services-1.2.0", "warehouse/sales/orders")
lag = upload("cow-services-1.2.0", "warehouse/sales/orders_lag")
events = upload("mor-services-1.2.0", "warehouse/ops/events")
s3.put_object(Bucket="lake", Key="raw/csv/part-0.csv", Body=b"id,amount\n1,10\n")
synced = {"last_commit_time_sync": "20261129162134323", "last_commit_completion_time_sync": "20261129162151912",
          "spark.sql.sources.provider": "hudi", "EXTERNAL": "TRUE"}
table("sales", "orders", orders, HUDI_IN, synced, ["dt"], [("2024-01-01",), ("2024-01-02",), ("2024-01-03",)])
# The catalog lags: synced two writes ago, one partition never added, one dropped partition kept.
table("sales", "orders_lag", lag, HUDI_IN,
      {"last_commit_time_sync": "20261129162031337", "last_commit_completion_time_sync": "20261129162048007",
       "spark.sql.sources.provider": "hudi"},
      ["dt"], [("2023-12-31",), ("2024-01-01",), ("2024-01-02",)])
table("sales", "raw_csv", "s3://lake/raw/csv", "org.apache.hadoop.mapred.TextInputFormat", {"EXTERNAL": "TRUE"})
table("sales", "gone", "s3://lake/warehouse/sales/gone", HUDI_IN, {"last_commit_time_sync": "20240101000000000"})
table("ops", "events_rt", events, HUDI_RT, {"spark.sql.sources.provider": "hudi"})
print("seeded", endpoint)
