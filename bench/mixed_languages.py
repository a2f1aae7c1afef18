#!/usr/bin/env python3
"""Turns the generator's English corpus (NDJSON on stdin) into one of mixed languages (stdout).

Every other meeting (by a hash of its id) keeps its English text; the rest are spread over the
16 other languages of the test fixture (src/test/resources/languages): title, minutes and each
transcript segment are rewritten from that language's sentences, the segment to about its old
length, and the line declares its `language`. For space-separated languages a third of each
sentence's words are dropped at random, so that meetings differ. The fixture is small (30
sentences a language, 6 until 2026-12-07), so a word of it occurs in most meetings of its
language and many times in each, which makes a query in those languages heavier than an English
one of the same length; with 6 sentences a word stood about five times as often in each meeting.

  mixed_languages.py FIXTURE_DIR QUERIES_OUT ENGLISH_QUERIES < english.ndjson > mixed.ndjson

QUERIES_OUT gets 300 queries: 150 of ENGLISH_QUERIES (every other line) and 150 in the other
languages (one or two words; a run of 2-4 characters for Chinese and Japanese, 3-8 for Thai).
"""
import hashlib
import json
import random
import re
import sys
from pathlib import Path

OTHERS = ["de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "fi", "pl", "ru", "zh", "ja", "ko", "th"]
UNSPACED = {"zh", "ja", "th"}


def sentences(fixture, lang):
    return [s.strip() for s in (fixture / f"{lang}.txt").read_text(encoding="utf-8").splitlines() if s.strip()]


def words(sentence):
    return re.findall(r"\w+", sentence)


def rewrite(sentence, lang, rnd):
    if lang in UNSPACED:
        return sentence
    kept = [w for w in sentence.split() if rnd.random() > 1 / 3]
    return " ".join(kept or sentence.split()[:1])


def text_of(lang, pool, length, rnd):
    out, size = [], 0
    while size < max(length, 1):
        s = rewrite(rnd.choice(pool), lang, rnd)
        out.append(s)
        size += len(s.encode("utf-8")) + 1
    return " ".join(out)


def queries(lang, pool, rnd, n):
    out = []
    while len(out) < n:
        s = rnd.choice(pool)
        if lang in UNSPACED:
            run = "".join(ch for ch in s if ch.isalpha())
            width = rnd.randint(2, 4) if lang != "th" else rnd.randint(3, 8)
            if len(run) <= width:
                continue
            start = rnd.randrange(len(run) - width)
            out.append(run[start:start + width])
        else:
            ws = [w.lower() for w in words(s) if len(w) >= 4]
            if not ws:
                continue
            out.append(" ".join(rnd.sample(ws, min(len(ws), rnd.choice([1, 1, 2])))))
    return out


def main():
    fixture, queries_out, english_queries = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    pools = {lang: sentences(fixture, lang) for lang in OTHERS}
    rnd = random.Random(46)
    for line in sys.stdin:
        record = json.loads(line)
        if record.get("kind") != "meeting":
            sys.stdout.write(line)
            continue
        h = int(hashlib.sha256(record["id"].encode()).hexdigest(), 16)
        if h % 2 == 0:
            sys.stdout.write(line)
            continue
        lang = OTHERS[(h // 2) % len(OTHERS)]
        pool = pools[lang]
        record["language"] = lang
        record["title"] = text_of(lang, pool, 1, rnd)[:80]
        for protocol in record.get("protocols", []):
            if protocol.get("content_md"):
                protocol["content_md"] = text_of(lang, pool, len(protocol["content_md"].encode("utf-8")), rnd)
        for segment in record.get("transcript", []):
            segment["text"] = text_of(lang, pool, len(segment["text"].encode("utf-8")), rnd)
        sys.stdout.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    english = english_queries.read_text(encoding="utf-8").splitlines()[::2][:150]
    other = [q for lang in OTHERS for q in queries(lang, pools[lang], rnd, 150 // len(OTHERS) + 1)]
    rnd.shuffle(other)
    mixed = [q for pair in zip(english, other[:150]) for q in pair]
    queries_out.write_text("\n".join(mixed) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
