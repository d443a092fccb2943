#!/usr/bin/env python3
"""tt-archive-<release>: time travel across the archive (issue 29 item 3).

A merge-on-read table whose delta commits and compactions are archived while NO clean has run
(hoodie.clean.automatic=false): the cleaner bounds nothing, so Hudi's time travel
(TimelineUtils.validateTimestampAsOf) accepts archived instants, and their files are all still
on storage. Deletes and updates sit in log blocks of delta commits that get archived, so a
reader that drops archived log blocks brings deleted keys back.

  PYSPARK_PYTHON=$VENV/bin/python $VENV/bin/python testdata/gen/gen_tt_archive.py \
      --fixture tt-archive-1.1.1 --hudi-release 1.1.1 --bundle <hudi-spark3.5-bundle_2.12-1.1.1.jar> \
      --out testdata/fixtures/tt-archive-1.1.1 --work /tmp/hudiscope-gen/tables --eventlog-codec off
  then probe_timetravel.py --archived --rows and probe_incremental.py for the fixture.

Uses generate.py's Gen (same fixture contract); never run from go test or CI.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402


class TTGen(generate.Gen):
    def tt_archive(self):
        name = "tt_archive"
        path = self.table_path(name)
        opts = self.archival_opts(self.base_opts(name, table_type="MERGE_ON_READ"))
        opts.update({"hoodie.clean.automatic": "false",
                     "hoodie.compact.inline": "true", "hoodie.compact.inline.max.delta.commits": "3",
                     "hoodie.index.type": "BLOOM"})
        plan = [
            ("insert", [(k, "n%d_1" % k, 1) for k in range(1, 7)]),
            ("upsert", [(1, "u1_2", 2), (2, "u2_2", 2)]),
            ("delete", [(3, "n3_1", 3)]),
            ("upsert", [(4, "u4_4", 4)]),
            ("delete", [(5, "n5_1", 5), (6, "n6_1", 5)]),
            ("upsert", [(1, "u1_6", 6), (7, "n7_6", 6)]),
            ("upsert", [(2, "u2_7", 7)]),
            ("delete", [(7, "n7_6", 8)]),
            ("upsert", [(4, "u4_9", 9), (8, "n8_9", 9)]),
            ("upsert", [(1, "u1_10", 10)]),
            ("upsert", [(2, "u2_11", 11)]),
            ("upsert", [(8, "u8_12", 12)]),
        ]
        events = []
        for i, (op, rows) in enumerate(plan, 1):
            self.write(path, rows, opts, op=op)
            events.append("dc%d %s ids %s" % (i, op, ",".join(str(r[0]) for r in rows)))
        self.snapshot_rows(path)
        summary = self.common_oracles(name, path)
        summary["write_log"] = events
        summary["notes"] = ["no clean ran (hoodie.clean.automatic=false): archived instants are inside the cleaner's (empty) retention"]
        self.finish(name, path, summary, opts)


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="")
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--hudi-release", required=True)
    ap.add_argument("--bundle", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--eventlog-codec", default="off")
    ap.add_argument("--eventlog-rolling", action="store_true")
    a = ap.parse_args()
    a.scenario = "tt-archive"
    TTGen(a).tt_archive()


if __name__ == "__main__":
    main()
