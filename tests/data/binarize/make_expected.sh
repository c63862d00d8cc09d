#!/bin/sh
# Regenerates the binarize test inputs and ChromHMM's expected outputs (see README.md).
# Needs python3, samtools and ChromHMM (Debian package chromhmm 1.24: /usr/share/java/chromhmm.jar).
set -eu
cd "$(dirname "$0")"
JAR=${CHROMHMM_JAR:-/usr/share/java/chromhmm.jar}
python3 make_inputs.py
for sam in *.sam; do
    samtools sort -o "${sam%.sam}.bam" "$sam" 2>/dev/null
done
samtools view -b -o C1_H3K4me3_unsorted.bam C1_H3K4me3.sam   # records in generation order
rm -f *.sam C1_input.bed C2_inputA.bed C2_inputB.bed   # controls are tested as .bed.gz only
# CRAMs of the control table's BAMs, against an all-N reference of the header's contigs (the reads
# carry no bases); UR is removed from their headers (no path of this machine), M5 stays.
python3 -c "
with open('cram_ref.fa', 'w') as f:
    for name, length in (('chrA', 40000), ('chrB', 25100), ('chrC', 12000), ('chrZ', 8000)):
        f.write('>' + name + '\\n' + ''.join('N' * min(60, length - i) + '\\n' for i in range(0, length, 60)))"
samtools faidx cram_ref.fa
for bam in C1_H3K4me3 C1_H3K27ac C1_H3K36me3 C1_input C2_H3K4me3 C2_H3K27ac C2_H3K36me3 C2_inputA C2_inputB; do
    samtools view -C --no-PG -T cram_ref.fa -o "$bam.cram" "$bam.bam" 2>/dev/null
    samtools view --no-PG -H "$bam.cram" | sed 's/\tUR:[^\t]*//' > header.sam
    samtools reheader --no-PG -i header.sam "$bam.cram"
done
rm -f header.sam
sed 's/\.bam/.cram/g' table_bam_control.txt > table_cram_control.txt
# Bad inputs (our own tests only; ChromHMM is not run on them).
: > empty.bam
head -c 2000 C1_H3K4me3.bam > truncated.bam
printf 'C1\tH3K4me3\tC1_H3K4me3_unsorted.bam\nC1\tH3K27ac\tC1_H3K27ac.bam\nC1\tH3K36me3\tC1_H3K36me3.bam\n' > table_unsorted.txt
printf 'C1\tH3K4me3\tempty.bam\n' > table_empty.txt
printf 'C1\tH3K4me3\ttruncated.bam\n' > table_truncated.txt
printf 'C1\tH3K4me3\tno_such_file.bam\n' > table_nofile.txt
rm -rf expected && mkdir expected
run() { # NAME MODE ARGS... TABLE
    name=$1; mode=$2; shift 2
    java -mx1G -jar "$JAR" "$mode" "$@" expected/"$name" >/dev/null
}
S=chrom.sizes
run bam_default           BinarizeBam                      $S . table_bam.txt
run bam_control           BinarizeBam                      $S . table_bam_control.txt
run bed_default           BinarizeBed                      $S . table_bed.txt
run bedgz_control         BinarizeBed                      $S . table_bedgz_control.txt
run bin_size_100          BinarizeBam -b 100               $S . table_bam_control.txt
run shift_50              BinarizeBam -n 50                $S . table_bam.txt
run poisson_0.01          BinarizeBam -p 0.01              $S . table_bam.txt
run fold_2                BinarizeBam -f 2                 $S . table_bam_control.txt
run signal_15             BinarizeBam -g 15                $S . table_bam.txt
run flank_2               BinarizeBam -w 2                 $S . table_bam_control.txt
run pseudocount_3         BinarizeBam -u 3                 $S . table_bam_control.txt
run strict                BinarizeBam -strictthresh        $S . table_bam_control.txt
run strict_nocontrol      BinarizeBed -strictthresh        $S . table_bed.txt
run paired                BinarizeBam -paired              $S . table_paired.txt
run center                BinarizeBam -center              $S . table_bam.txt
run center_bed            BinarizeBed -center              $S . table_bed.txt
run peaks                 BinarizeBed -peaks               $S . table_peaks.txt
run gzip                  BinarizeBam -gzip                $S . table_bam_control.txt
run missing_mark          BinarizeBam                      $S . table_missing.txt
