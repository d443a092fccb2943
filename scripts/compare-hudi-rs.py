"""Compares hudiscope's record reads with hudi-rs (PyPI `hudi`) on zipped tables: snapshot row
counts and (record key, partition) sets, and incremental row counts from every completed
commit. Run by scripts/compare-hudi-rs.sh (not CI). Usage:

    python compare-hudi-rs.py HUDISCOPE OUTDIR TABLE.zip... [--bench DIR]

--bench DIR times a snapshot scan of the table in DIR by both readers, side by side.
"""
import json
import os
import subprocess
import sys
import time
import zipfile

from hudi import HudiQueryType, HudiReadOptions, HudiTableBuilder


def unzip(z, out):
    dest = os.path.join(out, os.path.basename(os.path.dirname(z)) + "_" + os.path.basename(z)[:-4])
    if not os.path.isdir(dest):
        with zipfile.ZipFile(z) as f:
            f.extractall(dest)
    for root, dirs, _ in os.walk(dest):
        dirs[:] = sorted(d for d in dirs if d != "__MACOSX")  # macOS zip resource forks
        if ".hoodie" in dirs:
            return root
    raise RuntimeError("no .hoodie under " + dest)


def hudiscope(hs, *args):
    p = subprocess.run([hs, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("hudiscope %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()[-300:]))
    return p.stdout


def hs_keys(hs, path, *extra):
    keys, n = set(), 0
    for line in hudiscope(hs, "snapshot", path, "-o", "json", *extra).splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        n += 1
        k = r.get("_hoodie_record_key")
        if k is not None:
            keys.add((str(k), str(r.get("_hoodie_partition_path") or "")))
    return n, keys


def rs_read(path, opts=None):
    t = HudiTableBuilder.from_base_uri(path).build()
    batches = t.read(opts) if opts is not None else t.read()
    n, keys = 0, set()
    for b in batches:
        n += b.num_rows
        names = b.schema.names
        if "_hoodie_record_key" in names:
            ks = b.column(names.index("_hoodie_record_key")).to_pylist()
            ps = b.column(names.index("_hoodie_partition_path")).to_pylist() if "_hoodie_partition_path" in names else [""] * len(ks)
            for k, p in zip(ks, ps):
                if k is not None:
                    keys.add((str(k), str(p or "")))
    return n, keys


def table_version(path):
    props = os.path.join(path, ".hoodie", "hoodie.properties")
    for line in open(props, encoding="utf-8", errors="replace"):
        if line.startswith("hoodie.table.version="):
            return int(line.split("=", 1)[1])
    return 0


def compare(hs, path, name):
    row = {"table": name}
    try:
        rn, rk = rs_read(path)
    except Exception as e:  # hudi-rs cannot read it: say so, keep going
        row["hudi-rs"] = "error: " + str(e).splitlines()[0][:100]
        return row
    try:
        hn = int(hudiscope(hs, "snapshot", path, "--count").strip())
        _, hk = hs_keys(hs, path)
    except Exception as e:
        row["hudiscope"] = "error: " + str(e)[:200]
        row["hudi-rs rows"] = rn
        return row
    row.update({"hudi-rs rows": rn, "hudiscope rows": hn, "snapshot": "agree" if rn == hn else "DIFFER"})
    if rk and hk:
        row["keys"] = "agree" if rk == hk else "DIFFER (%d only hudi-rs, %d only hudiscope)" % (len(rk - hk), len(hk - rk))
    else:
        row["keys"] = "n/a (no meta fields)"
    # Incremental from every completed commit's instant time. hudi-rs compares instant times
    # (start exclusive); hudiscope reads as the release line that wrote the table.
    try:
        t = HudiTableBuilder.from_base_uri(path).build()
        tl = t.get_timeline()
        commits = tl.get_completed_commits() + tl.get_completed_deltacommits()
    except Exception as e:
        row["incremental"] = "timeline error: " + str(e)[:100]
        return row
    release = "0.15.0" if table_version(path) < 8 else "1.2.0"
    agree, total, diffs = 0, 0, []
    for c in sorted({c.timestamp for c in commits}):
        try:
            opts = HudiReadOptions().with_query_type(HudiQueryType.Incremental).with_start_timestamp(c)
            rn2, _ = rs_read(path, opts)
        except Exception as e:
            diffs.append("%s: hudi-rs error %s" % (c, str(e).splitlines()[0][:80]))
            total += 1
            continue
        try:
            hn2 = int(hudiscope(hs, "incremental", path, "--begin", c, "--count", "--hudi-version", release).strip())
        except Exception as e:
            diffs.append("%s: hudiscope error %s" % (c, str(e)[:120]))
            total += 1
            continue
        total += 1
        if rn2 == hn2:
            agree += 1
        else:
            diffs.append("%s: hudi-rs %d, hudiscope %d" % (c, rn2, hn2))
    row["incremental"] = "%d/%d agree" % (agree, total)
    if diffs:
        row["incremental differences"] = diffs[:4]
    return row


def timed(fn, runs):
    best, n = None, 0
    for _ in range(runs):
        t0 = time.perf_counter()
        n = fn()
        d = time.perf_counter() - t0
        best = d if best is None or d < best else best
    return {"rows": n, "seconds": round(best, 3), "rows_per_s": int(n / best)}


def bench(hs, path, runs=3):
    """Best of runs, each reader in its own process state: hudi-rs reading every column and the
    meta columns + ordering field only; hudiscope's `snapshot --count` (meta + ordering
    columns, the whole binary: open, list, scan) and `snapshot -o csv` (every column, printed)."""
    meta = ["_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path", "ts"]

    def rs(projection=None):
        t = HudiTableBuilder.from_base_uri(path).build()
        opts = HudiReadOptions(projection=projection) if projection else None
        return sum(b.num_rows for b in (t.read(opts) if opts else t.read()))

    def hs_count():
        return int(hudiscope(hs, "snapshot", path, "--count", "--max-scan-bytes", "0", "--max-scan-files", "0", "--no-mdt").strip())

    def hs_csv():
        p = subprocess.run([hs, "snapshot", path, "-o", "csv", "--max-scan-bytes", "0", "--max-scan-files", "0", "--no-mdt"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        return p.stdout.count(b"\n") - 1

    return {"table": path,
            "hudi-rs all columns": timed(rs, runs),
            "hudi-rs meta+ts": timed(lambda: rs(meta), runs),
            "hudiscope --count (meta+ts)": timed(hs_count, runs),
            "hudiscope -o csv (all columns, printed)": timed(hs_csv, runs)}


def main():
    args = sys.argv[1:]
    bench_dir = None
    if "--bench" in args:
        i = args.index("--bench")
        bench_dir = args[i + 1]
        del args[i : i + 2]
    hs, out, zips = args[0], args[1], args[2:]
    os.makedirs(out, exist_ok=True)
    rows = []
    for z in zips:
        name = os.path.relpath(z)
        try:
            path = unzip(z, out)
        except Exception as e:
            rows.append({"table": name, "error": str(e)})
            continue
        rows.append(compare(hs, path, name))
        print(json.dumps(rows[-1]), flush=True)
    if bench_dir:
        print(json.dumps({"benchmark": bench(hs, bench_dir)}), flush=True)


if __name__ == "__main__":
    main()
