#!/usr/bin/env python3
"""Writes the small enrichment fixture (segments.bed, coords/, anchors/) with a fixed seed.
The expected/ tables are ChromHMM's outputs on these files (see README.md)."""
import random

rng = random.Random(26)
BIN = 200
chroms = {"chr1": 24150, "chr2": 16000, "chrX": 9000}   # chr1 ends mid-bin
states = ["E1", "E2", "E3", "E4", "E6"]                  # E5 absent: its row is dropped
with open("segments.bed", "w") as out:
    for chrom, length in chroms.items():
        pos = 0
        while pos < length:
            run = rng.choice([1, 1, 2, 3, 5, 8]) * BIN
            end = min(pos + run, length)
            if chrom == "chr2" and 6000 <= pos < 7000:   # a gap: bins without a state
                pos = 7000
                continue
            out.write(f"{chrom}\t{pos}\t{end}\t{rng.choice(states)}\n")
            pos = end

def intervals(path, n, minlen, maxlen, extra_cols, chroms_used):
    rows = []
    for _ in range(n):
        chrom = rng.choice(chroms_used)
        length = chroms.get(chrom, 30000)
        start = rng.randrange(0, length - 50)
        end = start + rng.randrange(minlen, maxlen)     # may reach past the chromosome end
        rows.append((chrom, start, end))
    rows.sort()
    with open(path, "w") as out:
        for i, (chrom, start, end) in enumerate(rows):
            cols = [chrom, str(start), str(end)]
            if extra_cols >= 1:
                cols.append(f"item{i}")
            if extra_cols >= 2:
                cols.append(str(rng.randrange(0, 1000)))
            if extra_cols >= 3:
                cols.append(rng.choice("+-"))
            out.write("\t".join(cols) + "\n")

# genes: 6 columns, long and overlapping
intervals("coords/genes.bed", 25, 800, 6000, 3, ["chr1", "chr2", "chrX"])
# cpg: 5 columns (name, score), short, includes chrY which the segmentation lacks
intervals("coords/cpg.bed", 40, 30, 900, 2, ["chr1", "chr2", "chrX", "chrY"])
# peaks: plain 3 columns, 1-200 bp, many overlapping within one bin
intervals("coords/peaks.bed", 60, 1, 200, 0, ["chr1", "chr2"])
# tss: 4 columns, 1 bp
intervals("coords/tss.bed", 20, 1, 2, 1, ["chr1", "chr2", "chrX", "chrY"])

# anchors: chrom pos strand; both strands, near the chromosome starts (window before 0) and ends
with open("anchors/tss_anchors.txt", "w") as out:
    rows = [("chr1", 50, "+"), ("chr1", 150, "-"), ("chr1", 24100, "+"), ("chr2", 15990, "-"),
            ("chrY", 500, "+")]
    for _ in range(30):
        chrom = rng.choice(["chr1", "chr2", "chrX"])
        rows.append((chrom, rng.randrange(0, chroms[chrom]), rng.choice("+-")))
    for chrom, pos, strand in rows:
        out.write(f"{chrom}\t{pos}\t{strand}\n")
with open("anchors/tes_anchors.txt", "w") as out:
    for _ in range(15):
        chrom = rng.choice(["chr1", "chrX"])
        out.write(f"{chrom}\t{rng.randrange(0, chroms[chrom])}\t{rng.choice('+-')}\n")
