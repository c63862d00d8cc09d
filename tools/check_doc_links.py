#!/usr/bin/env python3
"""Checks the relative links and image paths of README.md, CHANGELOG.md, ui/README.md and docs/*.md:
every linked file exists and every #anchor names a heading of the linked page (GitHub slugs).
Exit 1 on a broken link."""
import re, pathlib, sys, unicodedata
root = pathlib.Path(__file__).resolve().parent.parent
files = [root/'README.md', root/'CHANGELOG.md', root/'ui/README.md'] + sorted((root/'docs').glob('*.md'))
def anchors(path):
    out=set(); seen={}
    in_code=False
    for line in path.read_text().split('\n'):
        if line.startswith('```'): in_code = not in_code; continue
        if in_code: continue
        m=re.match(r'^(#{1,6})\s+(.*)$', line)
        if not m: continue
        h=m.group(2).strip().lower()
        # GitHub slug: drop chars that are not letters, digits, spaces, hyphens, underscores
        s=''.join(c for c in h if c.isalnum() or c in ' -_' )
        s=s.replace(' ','-')
        n=seen.get(s,0); seen[s]=n+1
        out.add(s if n==0 else f'{s}-{n}')
    return out
bad=0; count=0
for f in files:
    text=f.read_text()
    # strip code blocks
    text_nc=re.sub(r'```.*?```','',text,flags=re.S)
    for m in re.finditer(r'\]\(([^)\s]+)\)', text_nc):
        link=m.group(1)
        if re.match(r'^[a-z]+://', link) or link.startswith('mailto:'): continue
        count+=1
        path, _, frag = link.partition('#')
        target = (f.parent/path).resolve() if path else f
        if not target.exists():
            print(f'{f.relative_to(root)}: missing {link}'); bad+=1; continue
        if frag and target.suffix=='.md':
            if frag not in anchors(target):
                print(f'{f.relative_to(root)}: no anchor #{frag} in {target.relative_to(root)}'); bad+=1
print(f'{count} links checked, {bad} broken')
sys.exit(1 if bad else 0)
