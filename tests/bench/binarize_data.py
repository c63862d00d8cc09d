#!/usr/bin/env python3
"""Seeded synthetic read set for timing `contrast-cli binarize` against ChromHMM (docs/binarize.md).

Two cells × four marks + one input control per cell over 37 Mb (chr1 15 Mb, chr2 12 Mb,
chr3 10 Mb), 250,000 single-end 36 bp reads per file (2.5 M reads). Each mark has enriched
domains (a share of its reads); reads are written as coordinate-sorted BAM (through samtools)
and as sorted BED, with four cellmarkfiletables (BAM/BED × without/with control).
Not part of CI. Usage: binarize_data.py OUTDIR [--seed N] [--reads N]
"""
import argparse
import os
import random
import subprocess

SIZES = [("chr1", 15_000_000), ("chr2", 12_000_000), ("chr3", 10_000_000)]
MARKS = {"H3K4me3": (400, 2_000, 0.5), "H3K27ac": (800, 3_000, 0.4),
         "H3K36me3": (150, 40_000, 0.4), "H3K27me3": (100, 60_000, 0.3)}  # domains, width, share
READ = 36


def reads_for(rng, count, domains, share):
    weights = [length for _, length in SIZES]
    out = []
    for _ in range(count):
        if domains and rng.random() < share:
            chrom, start, width = rng.choice(domains)
            pos = start + rng.randrange(width)
        else:
            chrom, length = rng.choices(SIZES, weights)[0]
            pos = rng.randrange(length - READ)
        out.append((chrom, pos, rng.random() < 0.5))
    order = {name: i for i, (name, _) in enumerate(SIZES)}
    out.sort(key=lambda r: (order[r[0]], r[1]))
    return out


def write(outdir, name, reads):
    with open(os.path.join(outdir, name + ".bed"), "w") as bed:
        bed.writelines(f"{c}\t{p}\t{p + READ}\tr\t60\t{'-' if s else '+'}\n" for c, p, s in reads)
    header = "@HD\tVN:1.6\tSO:coordinate\n" + "".join(f"@SQ\tSN:{n}\tLN:{l}\n" for n, l in SIZES)
    sam = subprocess.Popen(["samtools", "view", "-b", "-o", os.path.join(outdir, name + ".bam"), "-"],
                           stdin=subprocess.PIPE, text=True)
    sam.stdin.write(header)
    sam.stdin.writelines(f"r{i}\t{16 if s else 0}\t{c}\t{p + 1}\t60\t{READ}M\t*\t0\t0\t*\t*\n"
                         for i, (c, p, s) in enumerate(reads))
    sam.stdin.close()
    if sam.wait() != 0:
        raise SystemExit("samtools failed")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--reads", type=int, default=250_000)
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    rng = random.Random(args.seed)
    with open(os.path.join(args.outdir, "chrom.sizes"), "w") as f:
        f.writelines(f"{n}\t{l}\n" for n, l in SIZES)
    tables = {key: [] for key in ("bam", "bam_control", "bed", "bed_control")}
    for cell in ("E1", "E2"):
        write(args.outdir, f"{cell}_input", reads_for(rng, args.reads, [], 0))
        for mark, (count, width, share) in MARKS.items():
            domains = []
            for _ in range(count):
                chrom, length = rng.choices(SIZES, [l for _, l in SIZES])[0]
                domains.append((chrom, rng.randrange(length - width - READ), width))
            write(args.outdir, f"{cell}_{mark}", reads_for(rng, args.reads, domains, share))
            for ext in ("bam", "bed"):
                tables[ext].append(f"{cell}\t{mark}\t{cell}_{mark}.{ext}\n")
                tables[ext + "_control"].append(f"{cell}\t{mark}\t{cell}_{mark}.{ext}\t{cell}_input.{ext}\n")
    for key, lines in tables.items():
        with open(os.path.join(args.outdir, f"table_{key}.txt"), "w") as f:
            f.writelines(lines)


if __name__ == "__main__":
    main()
