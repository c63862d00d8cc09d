#!/usr/bin/env python3
"""Writes the small synthetic inputs of the binarize tests (seeded; rerun gives the same bytes).

Two cells (C1, C2), three marks, input controls; chrA/chrB/chrC in chrom.sizes and reads on
chrZ (absent from it); unmapped reads, MAPQ 0 reads, secondary alignments, reads past the end of
a chromosome and in its partial last bin, − strand reads near position 0, deletions and soft
clips in CIGARs. SAM text here; make_expected.sh turns it into BAM with samtools.
"""
import gzip
import random

rng = random.Random(25)
SIZES = [("chrA", 40000), ("chrB", 25100), ("chrC", 12000)]
ALL = SIZES + [("chrZ", 8000)]  # chrZ is in the BAM headers, not in chrom.sizes
MARKS = {"H3K4me3": [(2000, 4000), (20000, 21000)], "H3K27ac": [(3000, 6000), (30000, 31000)],
         "H3K36me3": [(10000, 18000)]}
READ = 36

with open("chrom.sizes", "w") as f:
    for name, length in SIZES:
        f.write(f"{name}\t{length}\n")
with open("chrom_nochr.sizes", "w") as f:
    for name, length in SIZES:
        f.write(f"{name[3:]}\t{length}\n")


def cigar():
    r = rng.random()
    if r < 0.05:
        return "10M5D26M", 41
    if r < 0.10:
        return "5S31M", 31
    return f"{READ}M", READ


def reads(cell, mark, n_background, enriched):
    """(chrom, pos1, flag, mapq, cigar) tuples."""
    out = []
    chroms = ALL if cell == "C1" else [c for c in ALL if c[0] != "chrC"]  # C2: no reads on chrC
    weights = [length for _, length in chroms]
    for _ in range(n_background):
        chrom, length = rng.choices(chroms, weights)[0]
        pos = rng.randint(1, length - READ + 1)
        out.append((chrom, pos))
    for start, end in enriched:
        for _ in range((end - start) // 10):
            chrom = "chrA" if start > 24000 or rng.random() < 0.7 else "chrB"
            length = dict(ALL)[chrom]
            pos = rng.randint(start, min(end, length - READ))
            out.append((chrom, pos))
    records = []
    for chrom, pos in out:
        flag = 16 if rng.random() < 0.5 else 0
        mapq = 0 if rng.random() < 0.05 else 60
        if rng.random() < 0.02:
            flag |= 256  # secondary alignment: ChromHMM counts it
        cig, _ = cigar()
        records.append((chrom, pos, flag, mapq, cig))
    # edge cases, 15 reads each so that they decide a call when they count
    for _ in range(15):
        records.append(("chrB", 25050, 0, 60, f"{READ}M"))   # partial last bin of chrB: dropped
        records.append(("chrB", 25090, 16, 60, f"{READ}M"))  # runs past the end of chrB
        records.append(("chrC", 11990, 0, 60, f"{READ}M"))   # shifted past the end of chrC
        records.append(("chrA", 5, 16, 60, f"{READ}M"))      # − strand, shift below 0 → bin 0
        records.append(("chrA", 8100, 0, 0, f"{READ}M"))     # MAPQ 0: ChromHMM counts it
        records.append(("chrA", 9100, 256, 60, f"{READ}M"))  # secondary: ChromHMM counts it
        records.append(("chrA", 7100, 4, 0, f"{READ}M"))     # unmapped but placed: skipped
        records.append(("*", 0, 4, 0, "*"))                  # unmapped
        records.append(("chrZ", 300, 0, 60, f"{READ}M"))     # contig absent from chrom.sizes
    return records


def sam_header():
    lines = ["@HD\tVN:1.6\tSO:unsorted"]
    lines += [f"@SQ\tSN:{name}\tLN:{length}" for name, length in ALL]
    return "\n".join(lines) + "\n"


def write_sam(name, records):
    with open(name, "w") as f:
        f.write(sam_header())
        for i, (chrom, pos, flag, mapq, cig) in enumerate(records):
            f.write(f"r{i}\t{flag}\t{chrom}\t{pos}\t{mapq}\t{cig}\t*\t0\t0\t*\t*\n")


def ref_span(cig):
    import re
    return sum(int(n) for n, op in re.findall(r"(\d+)([MDN=X])", cig))


def write_bed(name, records, opener=open):
    with opener(name, "wt") as f:
        for i, (chrom, pos, flag, mapq, cig) in enumerate(records):
            if flag & 4:
                continue
            start = pos - 1
            end = start + ref_span(cig)
            f.write(f"{chrom}\t{start}\t{end}\tr{i}\t{mapq}\t{'-' if flag & 16 else '+'}\n")


files = {}
for cell, scale in (("C1", 1.0), ("C2", 0.7)):
    for mark, regions in MARKS.items():
        recs = reads(cell, mark, int(700 * scale), regions if cell == "C1" else regions[:1])
        write_sam(f"{cell}_{mark}.sam", recs)
        write_bed(f"{cell}_{mark}.bed", recs)
        write_bed(f"{cell}_{mark}.bed.gz", recs, gzip.open)
    for control in (["input"] if cell == "C1" else ["inputA", "inputB"]):
        recs = reads(cell, control, int(1100 * scale), [])
        write_sam(f"{cell}_{control}.sam", recs)
        write_bed(f"{cell}_{control}.bed", recs)
        write_bed(f"{cell}_{control}.bed.gz", recs, gzip.open)

# Paired-end reads (every record paired, as ChromHMM -paired demands).
for cell in ("C1", "C2"):
    for mark, regions in MARKS.items():
        lines = []
        n = 0
        for _ in range(500):
            if rng.random() < 0.3:
                start, end = rng.choice(regions)
                chrom = "chrA" if end <= 40000 else "chrB"
            else:
                chrom, length = rng.choices(SIZES, [l for _, l in SIZES])[0]
                start, end = 1, length
            length = dict(ALL)[chrom]
            frag = rng.randint(120, 320)
            left = rng.randint(max(1, start), max(1, min(end, length) - frag))
            right = left + frag - READ
            proper = 2 if rng.random() < 0.95 else 0
            if rng.random() < 0.5:   # read1 forward on the left
                f1, f2, p1, p2, t1 = 64 | 32, 128 | 16, left, right, frag
            else:                    # read1 reverse on the right
                f1, f2, p1, p2, t1 = 64 | 16, 128 | 32, right, left, -frag
            f1 |= 1 | proper
            f2 |= 1 | proper
            lines.append(f"p{n}\t{f1}\t{chrom}\t{p1}\t60\t{READ}M\t=\t{p2}\t{t1}\t*\t*")
            lines.append(f"p{n}\t{f2}\t{chrom}\t{p2}\t60\t{READ}M\t=\t{p1}\t{-t1}\t*\t*")
            n += 1
        lines.append(f"p{n}\t77\t*\t0\t0\t*\t*\t0\t0\t*\t*")
        lines.append(f"p{n}\t141\t*\t0\t0\t*\t*\t0\t0\t*\t*")
        with open(f"{cell}_{mark}_paired.sam", "w") as f:
            f.write(sam_header() + "\n".join(lines) + "\n")

# Peaks (narrowPeak): a few intervals per cell and mark, some crossing bin edges or the end.
for cell in ("C1", "C2"):
    for mark, regions in MARKS.items():
        with open(f"{cell}_{mark}.narrowPeak", "w") as f:
            for start, end in regions:
                chrom = "chrA" if end <= 40000 else "chrB"
                for _ in range(4):
                    s = rng.randint(start, end - 300)
                    e = s + rng.randint(50, 900)
                    f.write(f"{chrom}\t{s}\t{e}\tpeak\t500\t.\t8.1\t12.3\t10.2\t{(e - s) // 2}\n")
            f.write("chrB\t24950\t25200\tedge\t500\t.\t8\t12\t10\t100\n")
            f.write("chrZ\t100\t600\tother\t500\t.\t8\t12\t10\t100\n")
            f.write("chrA\t0\t1\tfirst\t500\t.\t8\t12\t10\t0\n")

M = list(MARKS)


def table(name, ext, control=None, skip=()):
    with open(name, "w") as f:
        for cell in ("C1", "C2"):
            for i, mark in enumerate(M):
                if (cell, mark) in skip:
                    continue
                row = [cell, mark, f"{cell}_{mark}{ext}"]
                if control:
                    c = control(cell, i)
                    if c:
                        row.append(c + ext)
                f.write("\t".join(row) + "\n")


def controls(cell, i):
    # C1: one input for every mark (one control column); C2: inputA, inputB, and one mark
    # without control (one control column per mark, the last one the pseudocount alone).
    if cell == "C1":
        return "C1_input"
    return ["C2_inputA", "C2_inputB", None][i]


table("table_bam.txt", ".bam")
table("table_bam_control.txt", ".bam", controls)
table("table_bed.txt", ".bed")
table("table_bedgz_control.txt", ".bed.gz", controls)
table("table_paired.txt", "_paired.bam")
table("table_peaks.txt", ".narrowPeak")
table("table_missing.txt", ".bam", skip={("C2", "H3K27ac")})
