#!/usr/bin/env python3
"""Writes the bad-input catalogue (README.md here): one malformed file per case. Deterministic;
re-run from this folder to regenerate."""
import gzip
import io
import os
import random

rng = random.Random(12)
HDR = "K562\tchr11\nCTCF\tH3K27ac\tH3K4me3\n"
ROWS = "0\t1\t0\n1\t1\t1\n0\t0\t0\n"
BINARY = bytes(rng.randrange(256) for _ in range(700))


def put(name, data, gz=False):
    if isinstance(data, str):
        data = data.encode("latin-1")
    if gz:
        buffer = io.BytesIO()
        with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0, compresslevel=9) as f:
            f.write(data)
        data = buffer.getvalue()
    os.makedirs(os.path.dirname(name) or ".", exist_ok=True)
    with open(name, "wb") as f:
        f.write(data)


def truncated_gzip(name, text):
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as f:
        f.write(text.encode())
    data = buffer.getvalue()
    put(name, data[: len(data) // 2])


big_rows = "".join(f"{i % 2}\t{(i // 2) % 2}\t{(i // 3) % 2}\n" for i in range(4000))
# ChromHMM binarized tracks
put("chromhmm_empty_binary.txt", "")
put("chromhmm_no_header_binary.txt", ROWS)
put("chromhmm_header_three_fields_binary.txt", "K562\tchr11\textra\n" + HDR.split("\n")[1] + "\n" + ROWS)
put("chromhmm_header_only_binary.txt", "K562\tchr11\n")
put("chromhmm_duplicate_mark_binary.txt", "K562\tchr11\nCTCF\tH3K27ac\tCTCF\n" + ROWS)
put("chromhmm_ragged_binary.txt", HDR + ROWS + "0\t1\n" + ROWS)
put("chromhmm_value_out_of_range_binary.txt", HDR + "0\t1\t0\n0\t3\t1\n")
put("chromhmm_blank_row_binary.txt", HDR + ROWS + "\n" + ROWS)
put("chromhmm_no_bins_binary.txt", HDR)
put("chromhmm_random_bytes_binary.txt", BINARY)
put("chromhmm_utf16_binary.txt", "\ufeff".encode("utf-16-le") + (HDR + ROWS).encode("utf-16-le"))
put("chromhmm_too_many_marks_binary.txt",
    "K562\tchr11\n" + "\t".join(f"M{i}" for i in range(300)) + "\n" + "\t".join("0" * 300) + "\n")
truncated_gzip("chromhmm_truncated_binary.txt.gz", HDR + big_rows)
put("chromhmm_text_value_binary.txt", HDR + "0\t1\t0\nyes\tno\t0\n")

# BED (used as foreground regions of a good track)
put("bed_two_columns.bed", "chr11\t100\t400\nchr11\t500\n")
put("bed_negative_start.bed", "chr11\t-5\t400\n")
put("bed_start_after_end.bed", "chr11\t100\t400\nchr11\t900\t800\n")
put("bed_not_a_number.bed", "track name=genes\nchr11\tten\t400\n")
put("bed_only_comments.bed", "# nothing\ntrack name=x\n\n")
put("bed_random_bytes.bed", BINARY)
put("bed_huge_coordinate.bed", "chr11\t100\t99999999999999999999999\n")

# TSV / CSV corpora
GOOD = "text\ttopic\nthe grain harvest fell sharply\tgrain\ncrude oil prices rose again\toil\n"
put("tsv_empty.tsv", "")
put("tsv_no_text_column.tsv", "body\ttopic\nsome words here\tgrain\n")
put("tsv_ragged.tsv", GOOD + "only one cell\n")
put("tsv_nul_bytes.tsv", GOOD.encode() + b"wheat\x00\x00\x00 exports\tgrain\n")
put("tsv_utf16.tsv", "\ufeff".encode("utf-16-le") + GOOD.encode("utf-16-le"))
put("tsv_header_only.tsv", "text\ttopic\n")
put("tsv_huge_line.tsv.gz", b"text\ttopic\n" + b"a" * (80 << 20), gz=True)
truncated_gzip("tsv_truncated.tsv.gz", GOOD * 200)
put("tsv_random_bytes.tsv", BINARY)
put("tsv_only_stop_words.tsv", "text\ttopic\nthe and of\ta\nit is the\tb\nof and the\tc\n")
put("csv_unterminated_quote.csv", 'text,topic\n"grain harvest fell,grain\noil rose,oil\n')
put("csv_ragged.csv", "text,topic\ngrain harvest fell sharply,grain\noil,prices,rose,oil\n")
put("csv_empty.csv", "")

# UCI bag of words: docword + vocab
VOCAB = "grain\noil\nwheat\nprice\n"
put("uci/vocab.good.txt", VOCAB)
put("uci/docword.header_not_number.txt", "three\n4\n2\n1 1 2\n")
put("uci/docword.truncated.txt", "2\n4\n5\n1 1 2\n1 2 1\n")
put("uci/docword.word_out_of_range.txt", "2\n4\n3\n1 1 2\n1 9 1\n2 3 4\n")
put("uci/docword.document_zero.txt", "2\n4\n2\n0 1 2\n2 3 4\n")
put("uci/docword.negative_count.txt", "2\n4\n2\n1 1 -2\n2 3 4\n")
put("uci/docword.random_bytes.txt", BINARY)
put("uci/docword.good.txt", "2\n4\n8\n" + "".join(f"{d} {w} {d + w}\n" for d in (1, 2) for w in (1, 2, 3, 4)))
put("uci/vocab.short.txt", "grain\noil\n")

# Reuters SGML
STORY = ('<REUTERS TOPICS="YES" NEWID="1">\n<TOPICS><D>grain</D></TOPICS>\n'
         "<TEXT><TITLE>GRAIN HARVEST</TITLE><BODY>The grain harvest fell.</BODY></TEXT>\n</REUTERS>\n")
put("reuters/reut2-unclosed.sgm", STORY + '<REUTERS NEWID="2">\n<TEXT><BODY>oil prices rose\n')
put("reuters/reut2-no-block.sgm", "<!DOCTYPE lewis SYSTEM \"lewis.dtd\">\njust text, no stories\n")
put("reuters/reut2-random-bytes.sgm", BINARY)
truncated_gzip("reuters/reut2-truncated.sgm.gz", STORY * 300)
put("reuters/reut2-empty.sgm", "")

# Text folders
put("textfolder_binary/a/one.txt", b"\x00\x01\x02" + BINARY)
put("textfolder_no_txt/readme.md", "no .txt files here\n")

# Sessions (.cxproj)
SESSION = ('{"format": "contrast-explorer-session", "version": 1, "title": "t", "active": "topics",\n'
           ' "workspaces": {"topics": {"corpus": [{"path": "moved/corpus.tsv", '
           '"absolute": "/nonexistent/moved/corpus.tsv"}], "foreground": "topic=grain",\n'
           '  "background": {"mode": "rest"}, "model": {"k": 2, "gamma": 1}}}}\n')
put("session_not_json.cxproj", "this is not a session\n")
put("session_truncated.cxproj", SESSION[: len(SESSION) // 2])
put("session_newer_version.cxproj", SESSION.replace('"version": 1', '"version": 99'))
put("session_wrong_format.cxproj", SESSION.replace("contrast-explorer-session", "something-else"))
put("session_moved_data.cxproj", SESSION)
put("session_workspaces_array.cxproj",
    '{"format": "contrast-explorer-session", "version": 1,\n "workspaces": [1, 2]}\n')
put("session_random_bytes.cxproj", BINARY)
put("session_empty.cxproj", "")
# A number beyond double range: nlohmann throws out_of_range (not parse_error); found by fuzz_session.
put("session_number_overflow.cxproj", SESSION.replace('"gamma": 1', '"gamma": 1' + "1" * 40 + "e11111111111111"))
