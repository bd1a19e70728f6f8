"""Tuned Rust errors: the corpus issue 14's matcher is tuned on (its misses are there to read).

    .venv/bin/python bench/tuned_rust.py [--jobs N] [--json] [--misses] [--only CRATE ...]

The same machinery as bench/heldout_rust.py (imported, not copied): for each
crate a small program with one ``Result<T, E>`` expression per case, built
with cargo offline against Debian's crates as a directory source, run once
per case and form (Display and Debug, the ``unwrap`` panic, ``Error:`` from
``main``); the truth from the run, by the held-out script's rule. Only the
crates differ: Debian ``librust-*-dev`` crates that are NOT in the held-out
CRATES (checked at start), so that what is tuned here is measured there on
crates nobody looked at. Built programs and captured outputs are cached
under ``$XDG_CACHE_HOME/errordex/bench-tuned-rust``.

``--misses`` lists every case a form missed, with its texts: look at those,
fix the pattern, and pin it with a test on a real crate's output.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import heldout_rust as held
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from heldout_rust import Built, Crate

CRATES: tuple[Crate, ...] = (
    Crate(
        "data-encoding",
        "librust-data-encoding-dev",
        (
            'data_encoding::BASE64.decode(b"!!!!")',
            'data_encoding::BASE64.decode(b"abc")',
            'data_encoding::HEXUPPER.decode(b"0g")',
            'data_encoding::HEXLOWER.decode(b"abc")',
            'data_encoding::BASE32.decode(b"AB======")',
            'data_encoding::BASE64.decode(b"QQ=A")',
        ),
    ),
    Crate(
        "ipnet",
        "librust-ipnet-dev",
        (
            '"10.0.0.0/33".parse::<ipnet::Ipv4Net>()',
            '"10.0.0.0".parse::<ipnet::IpNet>()',
            "ipnet::Ipv4Net::new(std::net::Ipv4Addr::new(10, 0, 0, 0), 40)",
            "ipnet::Ipv6Net::new(std::net::Ipv6Addr::LOCALHOST, 200)",
            '"::1/129".parse::<ipnet::Ipv6Net>()',
        ),
    ),
    Crate(
        "ipnetwork",
        "librust-ipnetwork-dev",
        (
            '"10.0.0.0/33".parse::<ipnetwork::IpNetwork>()',
            '"10.0.0/8/9".parse::<ipnetwork::Ipv4Network>()',
            '"hello/8".parse::<ipnetwork::Ipv4Network>()',
            "ipnetwork::Ipv4Network::new(std::net::Ipv4Addr::new(10, 0, 0, 0), 40)",
            '"::1/300".parse::<ipnetwork::Ipv6Network>()',
        ),
    ),
    Crate(
        "num-bigint",
        "librust-num-bigint-dev",
        (
            '"12a".parse::<num_bigint::BigInt>()',
            '"".parse::<num_bigint::BigUint>()',
            '"-5".parse::<num_bigint::BigUint>()',
            "u8::try_from(num_bigint::BigInt::from(300))",
            '"+".parse::<num_bigint::BigInt>()',
        ),
    ),
    Crate(
        "num-traits",
        "librust-num-traits-dev",
        (
            '<f64 as num_traits::Num>::from_str_radix("zz", 10)',
            '<f64 as num_traits::Num>::from_str_radix("", 10)',
            '<f32 as num_traits::Num>::from_str_radix("1.5e", 16)',
            '<u32 as num_traits::Num>::from_str_radix("x", 10)',
        ),
    ),
    Crate(
        "idna",
        "librust-idna-dev",
        (
            'idna::domain_to_ascii("xn--a.com")',
            'idna::domain_to_ascii("a\\u{200d}b.com")',
            'idna::Config::default().use_std3_ascii_rules(true).to_ascii("a_b.com")',
            'idna::domain_to_ascii_strict("ex ample.com")',
        ),
    ),
    Crate(
        "xmlparser",
        "librust-xmlparser-dev",
        (
            'xmlparser::Tokenizer::from("<a").last().unwrap()',
            'xmlparser::Tokenizer::from("<?xml version=\\"2.0\\"?><a/>").next().unwrap()',
            'xmlparser::Tokenizer::from("<a b=c/>").nth(1).unwrap()',
            'xmlparser::Tokenizer::from("<!-- a -- b -->").next().unwrap()',
            'xmlparser::Tokenizer::from("<a>&bogus</a>").nth(2).unwrap()',
            'xmlparser::Tokenizer::from("<!DOCTYPE").next().unwrap()',
            'xmlparser::Tokenizer::from("<a></b c>").nth(2).unwrap()',
        ),
    ),
    Crate(
        "syn",
        "librust-syn-dev",
        (
            'syn::parse_str::<syn::Expr>("1 +")',
            'syn::parse_str::<syn::Ident>("fn")',
            'syn::parse_str::<syn::Type>("&&&")',
            'syn::parse_str::<syn::ItemFn>("fn f( {}")',
            'syn::parse_str::<syn::LitInt>("\\"x\\"")',
            'syn::parse_str::<syn::Path>("a::")',
            'syn::parse_str::<syn::Expr>("a b")',
        ),
        features=("full", "parsing", "printing", "extra-traits"),
    ),
    Crate(
        "proc-macro2",
        "librust-proc-macro2-dev",
        (
            '"\\"abc".parse::<proc_macro2::TokenStream>()',
            '"(a".parse::<proc_macro2::TokenStream>()',
            '"a)".parse::<proc_macro2::TokenStream>()',
        ),
    ),
    Crate(
        "rand",
        "librust-rand-dev",
        (
            "rand::distributions::WeightedIndex::new(&[0.0f64, 0.0])",
            "rand::distributions::WeightedIndex::new(Vec::<f64>::new())",
            "rand::distributions::WeightedIndex::new(&[1.0f64, -1.0])",
            "rand::distributions::Bernoulli::new(2.0)",
            "rand::distributions::Bernoulli::from_ratio(3, 2)",
            "rand::distributions::WeightedIndex::new(&[f64::NAN])",
        ),
    ),
    Crate(
        "crossbeam-channel",
        "librust-crossbeam-channel-dev",
        (
            "{ let (s, r) = crossbeam_channel::bounded::<u8>(1); drop(r); s.send(7) }",
            "{ let (s, r) = crossbeam_channel::bounded::<u8>(1); drop(s); r.recv() }",
            "{ let (s, r) = crossbeam_channel::bounded::<u8>(1); let x = r.try_recv(); drop(s); x }",
            "{ let (s, r) = crossbeam_channel::bounded::<u8>(0); let x = r.recv_timeout(std::time::Duration::from_millis(5)); drop(s); x }",
            "{ let (s, r) = crossbeam_channel::bounded::<u8>(0); let x = s.try_send(1); drop(r); x }",
            "{ let (s, r) = crossbeam_channel::bounded::<u8>(0); drop(r); s.send_timeout(1, std::time::Duration::from_millis(5)) }",
        ),
    ),
    Crate(
        "termcolor",
        "librust-termcolor-dev",
        (
            '"purplish".parse::<termcolor::Color>()',
            '"300".parse::<termcolor::Color>()',
            '"0xZZ".parse::<termcolor::Color>()',
            '"1,2".parse::<termcolor::Color>()',
        ),
    ),
    Crate(
        "tracing-core",
        "librust-tracing-core-dev",
        (
            '"loud".parse::<tracing_core::Level>()',
            '"loud".parse::<tracing_core::LevelFilter>()',
            '"9".parse::<tracing_core::Level>()',
        ),
    ),
    Crate(
        "strsim",
        "librust-strsim-dev",
        ('strsim::hamming("ab", "abc")', "strsim::generic_hamming(&[1, 2], &[1])"),
    ),
    Crate(
        "bstr",
        "librust-bstr-dev",
        (
            'bstr::ByteSlice::to_str(&b"ab\\xffc"[..])',
            'bstr::ByteSlice::to_str(&b"ab\\xe2\\x82"[..])',
            'bstr::ByteVec::into_string(b"\\xf0abc".to_vec())',
        ),
    ),
    Crate(
        "object",
        "librust-object-dev",
        (
            'object::File::parse(&b"junk, not an object file"[..])',
            'object::File::parse(&b"\\x7fELF\\x02\\x01\\x01"[..])',
            'object::File::parse(&b"MZ"[..])',
            'object::read::archive::ArchiveFile::parse(&b"!<arch>\\nshort"[..])',
        ),
    ),
    Crate(
        "cpp_demangle",
        "librust-cpp-demangle-dev",
        (
            'cpp_demangle::Symbol::new(&b"_Zxyz"[..])',
            'cpp_demangle::Symbol::new(&b"foo"[..])',
            'cpp_demangle::Symbol::new(&b"_Z3fooxyz"[..])',
            'cpp_demangle::Symbol::new(&b""[..])',
            'cpp_demangle::Symbol::new(&b"_ZN3foo"[..])',
        ),
    ),
    Crate(
        "gimli",
        "librust-gimli-dev",
        (
            "gimli::leb128::read::unsigned(&mut gimli::EndianSlice::new(&[0x80u8], gimli::LittleEndian))",
            "gimli::leb128::read::unsigned(&mut gimli::EndianSlice::new(&[0xffu8; 11], gimli::LittleEndian))",
            "gimli::Reader::read_u32(&mut gimli::EndianSlice::new(&[1u8], gimli::LittleEndian))",
            "gimli::DebugStr::new(&[1u8, 2], gimli::LittleEndian).get_str(gimli::DebugStrOffset(9))",
        ),
    ),
    Crate(
        "flate2",
        "librust-flate2-dev",
        (
            "flate2::Decompress::new(true).decompress(&[1, 2, 3, 4], &mut [0u8; 64], flate2::FlushDecompress::Finish)",
            "flate2::Decompress::new(false).decompress(&[0xff; 8], &mut [0u8; 64], flate2::FlushDecompress::Finish)",
            '{ use std::io::Read; let mut s = String::new(); flate2::read::GzDecoder::new(&b"not gzip at all"[..]).read_to_string(&mut s) }',
            "{ use std::io::Read; let mut s = Vec::new(); flate2::read::ZlibDecoder::new(&[0x78u8, 0x9c, 0xff][..]).read_to_end(&mut s) }",
        ),
    ),
    Crate(
        "arbitrary",
        "librust-arbitrary-dev",
        (
            "arbitrary::Unstructured::new(&[1, 2]).choose::<u8>(&[])",
            "arbitrary::Unstructured::new(&[]).bytes(4)",
            "<u32 as arbitrary::Arbitrary>::arbitrary_take_rest(arbitrary::Unstructured::new(&[1]))",
            "<char as arbitrary::Arbitrary>::arbitrary_take_rest(arbitrary::Unstructured::new(&[0xff, 0xff, 0xff, 0xff]))",
        ),
    ),
    Crate(
        "bumpalo",
        "librust-bumpalo-dev",
        (
            "{ let b = bumpalo::Bump::new(); b.set_allocation_limit(Some(0)); b.try_alloc([0u8; 64]).map(|_| ()) }",
            "{ let b = bumpalo::Bump::try_with_capacity(usize::MAX / 2); b.map(|_| ()) }",
        ),
    ),
    Crate(
        "smallvec",
        "librust-smallvec-dev",
        (
            "smallvec::SmallVec::<[u64; 4]>::new().try_reserve(usize::MAX)",
            "smallvec::SmallVec::<[u64; 4]>::new().try_grow(usize::MAX / 2)",
        ),
    ),
    Crate(
        "tokio",
        "librust-tokio-dev",
        (
            "tokio::sync::Semaphore::new(0).try_acquire().map(|_| ())",
            "{ let s = tokio::sync::Semaphore::new(1); s.close(); s.try_acquire().map(|_| ()) }",
            "{ let (tx, rx) = tokio::sync::mpsc::channel::<u8>(1); drop(rx); tx.try_send(1) }",
            "{ let (tx, rx) = tokio::sync::mpsc::channel::<u8>(1); tx.try_send(1).unwrap(); let x = tx.try_send(2); drop(rx); x }",
            "{ let (tx, mut rx) = tokio::sync::oneshot::channel::<u8>(); let x = rx.try_recv(); drop(tx); x }",
            "{ let (tx, mut rx) = tokio::sync::oneshot::channel::<u8>(); drop(tx); rx.try_recv() }",
            "{ let (tx, mut rx) = tokio::sync::broadcast::channel::<u8>(1); let x = rx.try_recv(); drop(tx); x }",
            "{ let (tx, rx) = tokio::sync::watch::channel(0u8); drop(rx); tx.send(1) }",
            "{ let m = tokio::sync::Mutex::new(0); let _g = m.try_lock().unwrap(); m.try_lock().map(|_| ()) }",
        ),
        features=("sync",),
    ),
    Crate(
        "serde",
        "librust-serde-dev",
        (
            'u8::deserialize(serde::de::value::StrDeserializer::<serde::de::value::Error>::new("x"))',
            "bool::deserialize(serde::de::value::U64Deserializer::<serde::de::value::Error>::new(3))",
            "u8::deserialize(serde::de::value::U64Deserializer::<serde::de::value::Error>::new(300))",
            'Color::deserialize(serde::de::value::StrDeserializer::<serde::de::value::Error>::new("purple"))',
            'Point::deserialize(serde::de::value::MapDeserializer::<_, serde::de::value::Error>::new(vec![("x", 1u8)].into_iter()))',
            'char::deserialize(serde::de::value::StrDeserializer::<serde::de::value::Error>::new("ab"))',
        ),
        prelude=(
            "use serde::Deserialize;\n"
            "#[derive(Debug, Deserialize)] enum Color { Red, Green }\n"
            "#[derive(Debug, Deserialize)] struct Point { x: u8, y: u8 }\n"
        ),
        features=("derive",),
    ),
    Crate(
        "regex-automata",
        "librust-regex-automata-dev",
        (
            'regex_automata::DenseDFA::new("(")',
            'regex_automata::Regex::new("a{2,1}")',
            'regex_automata::dense::Builder::new().anchored(true).build("\\\\p{Bogus}")',
        ),
    ),
    Crate(
        "walkdir",
        "librust-walkdir-dev",
        (
            'walkdir::WalkDir::new("/nonexistent/errordex").into_iter().next().unwrap()',
            'walkdir::WalkDir::new("/proc/self/fd/999999").into_iter().next().unwrap()',
        ),
    ),
    Crate(
        "semver",
        "librust-semver-dev",
        (
            'semver::Version::parse("1.2")',
            'semver::Version::parse("1.2.x")',
            'semver::Version::parse("01.2.3")',
            'semver::VersionReq::parse("*, >1")',
            'semver::Version::parse("1.2.3-")',
            'semver::VersionReq::parse(">=1.0.0 <2")',
            'semver::Version::parse("1.2.99999999999999999999")',
        ),
    ),
    Crate(
        "regex-syntax",
        "librust-regex-syntax-dev",
        (
            'regex_syntax::Parser::new().parse("(")',
            'regex_syntax::Parser::new().parse("a{2,1}")',
            'regex_syntax::Parser::new().parse("\\\\p{Bogus}")',
            'regex_syntax::Parser::new().parse("(?P<n>a)(?P<n>b)")',
            'regex_syntax::ParserBuilder::new().nest_limit(2).build().parse("(((a)))")',
            'regex_syntax::Parser::new().parse("[z-a]")',
        ),
    ),
    Crate(
        "log",
        "librust-log-dev",
        ('"loud".parse::<log::Level>()', '"loud".parse::<log::LevelFilter>()'),
    ),
    Crate(
        "rayon-core",
        "librust-rayon-core-dev",
        (
            "{ rayon_core::ThreadPoolBuilder::new().build_global().unwrap(); rayon_core::ThreadPoolBuilder::new().build_global() }",
        ),
    ),
    Crate(
        "cc",
        "librust-cc-dev",
        ('cc::Build::new().file("x.c").try_compile("x")',),
    ),
    Crate(
        "serde_yaml",
        "librust-serde-yaml-dev",
        (
            'serde_yaml::from_str::<u8>("300")',
            'serde_yaml::from_str::<Vec<u8>>("a: [")',
            'serde_yaml::from_str::<std::collections::BTreeMap<String, u8>>("a: b")',
            'serde_yaml::from_str::<Point>("x: 1")',
            'serde_yaml::from_str::<u8>("a\\n---\\nb")',
            'serde_yaml::from_str::<Point>("x: 1\\ny: 2\\nz: 3")',
        ),
        prelude=(
            "#[derive(Debug, serde::Deserialize)] #[serde(deny_unknown_fields)]"
            " struct Point { x: u8, y: u8 }\n"
        ),
        serde=True,
    ),
    Crate(
        "quick-xml",
        "librust-quick-xml-dev",
        (
            '{ let mut r = quick_xml::Reader::from_str("<a></b>"); r.read_event().and_then(|_| r.read_event()).map(|_| ()) }',
            'quick_xml::escape::unescape("&bogus;")',
            'quick_xml::escape::unescape("a & b")',
            'quick_xml::escape::unescape("&#xFFFFFFFF;")',
            '{ let mut r = quick_xml::Reader::from_str("<a"); r.read_event().map(|_| ()) }',
        ),
    ),
    Crate(
        "ron",
        "librust-ron-dev",
        (
            'ron::from_str::<u8>("300")',
            'ron::from_str::<Vec<u8>>("[1, 2")',
            'ron::from_str::<String>("nope")',
            'ron::from_str::<bool>("maybe")',
        ),
    ),
    Crate(
        "rust_decimal",
        "librust-rust-decimal-dev",
        (
            '"abc".parse::<rust_decimal::Decimal>()',
            '"".parse::<rust_decimal::Decimal>()',
            "rust_decimal::Decimal::try_new(1, 40)",
            'rust_decimal::Decimal::from_scientific("1e")',
            'rust_decimal::Decimal::from_str_radix("zz", 10)',
        ),
    ),
    Crate(
        "mime",
        "librust-mime-dev",
        (
            '"text".parse::<mime::Mime>()',
            '"text/plain; charset=\\"utf".parse::<mime::Mime>()',
            '"text/pl ain".parse::<mime::Mime>()',
            '"".parse::<mime::Mime>()',
            '"text/plain; charset".parse::<mime::Mime>()',
        ),
    ),
    Crate(
        "shell-words",
        "librust-shell-words-dev",
        ('shell_words::split("a \'b")', 'shell_words::split("a \\"b")'),
    ),
    Crate(
        "bs58",
        "librust-bs58-dev",
        (
            'bs58::decode("0OIl").into_vec()',
            'bs58::decode("abcdef").into(&mut [0u8; 1])',
            'bs58::decode("1").with_check(None).into_vec()',
        ),
        features=("check",),
    ),
    Crate(
        "bincode",
        "librust-bincode-dev",
        (
            "bincode::deserialize::<u64>(&[1, 2])",
            "bincode::deserialize::<bool>(&[5])",
            "bincode::deserialize::<String>(&[1, 0, 0, 0, 0, 0, 0, 0, 0xff])",
            "bincode::deserialize::<char>(&[0xff])",
            "bincode::deserialize::<Option<u8>>(&[7])",
        ),
    ),
    Crate(
        "serde_cbor",
        "librust-serde-cbor-dev",
        (
            "serde_cbor::from_slice::<u8>(&[0x19, 0x01])",
            "serde_cbor::from_slice::<String>(&[0x01])",
            "serde_cbor::from_slice::<u8>(&[0x1c])",
            "serde_cbor::from_slice::<u8>(&[0x01, 0x02])",
        ),
    ),
    Crate(
        "arrayvec",
        "librust-arrayvec-dev",
        (
            "{ let mut v = arrayvec::ArrayVec::<u8, 1>::new(); v.push(1); v.try_push(2) }",
            'arrayvec::ArrayString::<2>::from("abc")',
            "{ let mut v = arrayvec::ArrayVec::<u8, 1>::new(); v.try_insert(3, 1) }",
        ),
    ),
    Crate(
        "toml_edit",
        "librust-toml-edit-dev",
        (
            '"a = ".parse::<toml_edit::Document>()',
            '"a = 1\\na = 2".parse::<toml_edit::Document>()',
            '"[a]\\n[a]".parse::<toml_edit::Document>()',
        ),
    ),
    Crate(
        "num-rational",
        "librust-num-rational-dev",
        (
            '"1/0".parse::<num_rational::Ratio<i32>>()',
            '"1/2/3".parse::<num_rational::Ratio<i32>>()',
        ),
    ),
    Crate(
        "ascii",
        "librust-ascii-dev",
        (
            'ascii::AsciiString::from_ascii("h\\u{e9}llo")',
            "ascii::AsciiChar::from_ascii(200u8)",
            'ascii::AsciiStr::from_ascii("\\u{e9}")',
        ),
    ),
    Crate(
        "zip",
        "librust-zip-dev",
        (
            'zip::ZipArchive::new(std::io::Cursor::new(b"not a zip".to_vec())).map(|_| ())',
            '{ let mut z = zip::ZipArchive::new(std::io::Cursor::new(b"PK\\x05\\x06\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0".to_vec())).unwrap(); z.by_name("x").map(|_| ()) }',
        ),
        features=("deflate",),
    ),
    Crate(
        "num-complex",
        "librust-num-complex-dev",
        (
            '"1+".parse::<num_complex::Complex<f64>>()',
            '"abc".parse::<num_complex::Complex<f64>>()',
        ),
    ),
    Crate(
        "ordered-float",
        "librust-ordered-float-dev",
        (
            "ordered_float::NotNan::new(f64::NAN)",
            '"x".parse::<ordered_float::NotNan<f64>>()',
            '"NaN".parse::<ordered_float::NotNan<f64>>()',
        ),
    ),
    Crate(
        "rmp-serde",
        "librust-rmp-serde-dev",
        (
            "rmp_serde::from_slice::<u8>(&[0xc1])",
            "rmp_serde::from_slice::<String>(&[0x01])",
            "rmp_serde::from_slice::<u8>(&[])",
            "rmp_serde::from_slice::<u8>(&[0xcd, 0x01, 0x2c])",
        ),
    ),
    Crate(
        "serde_urlencoded",
        "librust-serde-urlencoded-dev",
        (
            'serde_urlencoded::from_str::<Point>("x=a&y=1")',
            'serde_urlencoded::to_string(&[("a", vec![1u8])])',
        ),
        prelude="#[derive(Debug, serde::Deserialize)] struct Point { x: u8, y: u8 }\n",
        serde=True,
    ),
    Crate(
        "lexical-core",
        "librust-lexical-core-dev",
        (
            'lexical_core::parse::<u8>(b"x")',
            'lexical_core::parse::<u8>(b"300")',
            'lexical_core::parse::<f64>(b"")',
        ),
    ),
    Crate(
        "byte-unit",
        "librust-byte-unit-dev",
        (
            'byte_unit::Byte::from_str("12 XB")',
            'byte_unit::Byte::from_str("abc")',
        ),
    ),
    Crate(
        "indicatif",
        "librust-indicatif-dev",
        (
            'indicatif::ProgressStyle::with_template("{bar:abc}").map(|_| ())',
            'indicatif::ProgressStyle::with_template("{msg:>x}").map(|_| ())',
        ),
    ),
)


def main() -> None:
    measure(CRATES, "bench-tuned-rust", "tuned", (__doc__ or "").splitlines()[0])


def measure(crates: tuple[Crate, ...], cache: str, kind: str, description: str) -> None:
    """Build, run, index and score ``crates`` (cached under ``cache``); print the figures.

    Shared by this script and bench/probe_rust.py: the same harness on another corpus.
    """
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--jobs", type=int, default=None, help="index worker processes")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--misses", action="store_true", help="list dropped cases and misses")
    ap.add_argument("--only", nargs="*", default=None, help="only these crates")
    ap.add_argument("--dump", type=Path, default=None, help="write every scored case as JSON")
    args = ap.parse_args()
    say = (lambda *a: print(*a, file=sys.stderr, flush=True)) if args.json else print

    clash = {c.name for c in crates} & {c.name for c in held.CRATES}
    if clash:
        sys.exit(f"held-out crates in the {kind} set: {sorted(clash)}")
    if shutil.which("cargo") is None:
        sys.exit("cargo is needed (a Rust toolchain)")
    rustc = held.rustc_version()
    root = held.cache_root().parent / cache
    built: list[Built] = []
    t0 = time.perf_counter()
    for crate in crates:
        if args.only is not None and crate.name not in args.only:
            continue
        directory = held.registry_dir(crate.name)
        if directory is None:
            say(f"skipped {crate.name}: {crate.deb} is not installed")
            continue
        version = directory.name[len(crate.name) + 1 :]
        runs = held.build_and_run(crate, directory, version, rustc, root)
        if "error" in runs:
            say(f"skipped {crate.name} {version}: the program did not build:\n{runs['error']}")
            continue
        cases, dropped = held.read_cases(crate, runs)
        built.append(
            Built(crate, directory, version, held.slug_of(directory, crate.name), cases, dropped)
        )
    say(
        f"corpus in {time.perf_counter() - t0:.1f}s ({rustc}): {len(built)} crates,"
        f" {sum(len(b.cases) for b in built)} cases,"
        f" {sum(len(b.dropped) for b in built)} dropped (returned Ok or did not fail)"
    )
    with tempfile.TemporaryDirectory(prefix=f"errordex-{cache}-") as td:
        store = SqliteStore(Path(td) / "store.db")
        t0 = time.perf_counter()
        for b in built:
            index(str(b.directory), store, name=b.slug, jobs=args.jobs)
        say(f"indexed {len(built)} crates in {time.perf_counter() - t0:.1f}s")
        for b in built:
            held.right_entries(store, b.slug, b.cases)
        for b in built:
            for c in b.cases:
                held.score(store, c)
        store.close()
    fig = held.figures(built, rustc)
    if args.json:
        print(json.dumps(fig, indent=2))
    else:
        held.print_figures(fig)
    if args.misses:
        held.print_misses(built, sys.stderr if args.json else sys.stdout)
    if args.dump is not None:
        rows = [{"crate": b.crate.name, **vars(c)} for b in built for c in b.cases]
        args.dump.write_text(json.dumps(rows, indent=1, default=str))


if __name__ == "__main__":
    main()
