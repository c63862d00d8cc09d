#!/usr/bin/python3
"""A small noisy Reuters-21578 subset for the Topics trust measurements.

Keeps the first DOCS stories that have a <BODY> (in file order, reut2-000.sgm.gz first) and cuts
each body to its first WORDS words, so the documents are short (like forum posts) and the
moments of a small foreground/background contrast are noisy. Everything else of a story (its
TOPICS, PLACES, NEWID, TITLE) is kept, so `contrast-cli --corpus OUT` reads it with the
Reuters reader and the demo's rules work unchanged. Deterministic: no random draw.

    /usr/bin/python3 tools/make_noisy_reuters.py ../shared/data/reuters21578 /tmp/topics-noisy-short \
        --docs 2500 --words 30
"""
import argparse
import gzip
import os
import re
import sys

BLOCK = re.compile(r"<REUTERS.*?</REUTERS>", re.S)
BODY = re.compile(r"(<BODY>)(.*?)(</BODY>)", re.S)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", help="folder with reut2-*.sgm.gz")
    parser.add_argument("out", help="folder to write reut2-noisy.sgm into")
    parser.add_argument("--docs", type=int, default=2500)
    parser.add_argument("--words", type=int, default=30)
    args = parser.parse_args()
    if args.docs < 1 or args.words < 3:
        sys.exit("make_noisy_reuters.py: --docs must be >= 1 and --words >= 3")
    files = sorted(f for f in os.listdir(args.source) if re.fullmatch(r"reut2-\d{3}\.sgm(\.gz)?", f))
    if not files:
        sys.exit(f"make_noisy_reuters.py: {args.source}: no reut2-*.sgm[.gz] files")
    kept = []
    for name in files:
        path = os.path.join(args.source, name)
        opener = gzip.open if name.endswith(".gz") else open
        with opener(path, "rt", encoding="latin-1") as f:
            text = f.read()
        for block in BLOCK.findall(text):
            body = BODY.search(block)
            if not body:
                continue
            short = " ".join(body.group(2).split()[: args.words])
            kept.append(block[: body.start(2)] + short + block[body.end(2):])
            if len(kept) == args.docs:
                break
        if len(kept) == args.docs:
            break
    os.makedirs(args.out, exist_ok=True)
    out = os.path.join(args.out, "reut2-900.sgm")
    with open(out, "w", encoding="latin-1") as f:
        f.write('<!DOCTYPE lewis SYSTEM "lewis.dtd">\n')
        f.write("\n".join(kept) + "\n")
    print(f"{out}: {len(kept)} stories, bodies cut to {args.words} words")


if __name__ == "__main__":
    main()
