"""Probe Rust errors: a corpus neither tuned on nor held out, to tell a general rule from a fit.

    .venv/bin/python bench/probe_rust.py [--jobs N] [--json] [--misses] [--only CRATE ...] [--dump FILE]

The harness of bench/tuned_rust.py (``measure``) on other Debian
``librust-*-dev`` crates (38, with thiserror enums, hand-written Displays,
parse errors and errors nested in errors): a rule tuned on bench/tuned_rust.py
should move these too. A crate in the tuned or the held-out set is refused.
Built programs and outputs are cached under ``$XDG_CACHE_HOME/errordex/bench-probe-rust``.
Read its misses, but pin a fix on a test only when the same rule is seen on
other crates as well: the probe is for measuring, not for tuning.
"""

from __future__ import annotations

import sys

import tuned_rust
from heldout_rust import Crate

CRATES: tuple[Crate, ...] = (
    Crate(
        "yaml-rust",
        "librust-yaml-rust-dev",
        (
            'yaml_rust::YamlLoader::load_from_str("a: [b")',
            'yaml_rust::YamlLoader::load_from_str("a: \\"b")',
            'yaml_rust::YamlLoader::load_from_str("- a\\nb: c")',
            'yaml_rust::YamlLoader::load_from_str("*x")',
        ),
    ),
    Crate(
        "rmp",
        "librust-rmp-dev",
        (
            "rmp::decode::read_int::<u8, _>(&mut &[0xc0u8][..])",
            "rmp::decode::read_int::<u8, _>(&mut &[0xcdu8, 0x01, 0x00][..])",
            "rmp::decode::read_bool(&mut &[0x01u8][..])",
            "rmp::decode::read_array_len(&mut &[][..])",
        ),
    ),
    Crate(
        "base64ct",
        "librust-base64ct-dev",
        (
            '<base64ct::Base64 as base64ct::Encoding>::decode("!!!!", &mut [0u8; 8]).map(|b| b.len())',
            '<base64ct::Base64 as base64ct::Encoding>::decode("abc", &mut [0u8; 8]).map(|b| b.len())',
            '<base64ct::Base64 as base64ct::Encoding>::decode("QUJD", &mut [0u8; 1]).map(|b| b.len())',
        ),
    ),
    Crate(
        "password-hash",
        "librust-password-hash-dev",
        (
            'password_hash::PasswordHash::new("nope")',
            'password_hash::PasswordHash::new("$x$v=a$b")',
            'password_hash::Salt::new("a")',
            'password_hash::Ident::new("UPPER")',
            'password_hash::PasswordHash::new("$argon2id$v=19$m=65536$c2FsdHNhbHQ$!!")',
        ),
    ),
    Crate(
        "itertools",
        "librust-itertools-dev",
        (
            "itertools::Itertools::exactly_one(vec![1, 2].into_iter())",
            "itertools::Itertools::exactly_one(Vec::<u8>::new().into_iter())",
        ),
    ),
    Crate(
        "which",
        "librust-which-dev",
        (
            'which::which("no-such-binary-errordex")',
            'which::which("")',
            'which::which_in("sh", Some("/nonexistent"), "/")',
        ),
    ),
    Crate(
        "bigdecimal",
        "librust-bigdecimal-dev",
        (
            '"1.2.3".parse::<bigdecimal::BigDecimal>()',
            '"1e".parse::<bigdecimal::BigDecimal>()',
            '"".parse::<bigdecimal::BigDecimal>()',
            '"abc".parse::<bigdecimal::BigDecimal>()',
        ),
    ),
    Crate(
        "cfg-expr",
        "librust-cfg-expr-dev",
        (
            'cfg_expr::Expression::parse("all(unix")',
            'cfg_expr::Expression::parse("foo(bar)")',
            'cfg_expr::Expression::parse("not(a, b)")',
            'cfg_expr::Expression::parse("a = ")',
            'cfg_expr::Expression::parse("")',
        ),
    ),
    Crate(
        "cookie",
        "librust-cookie-dev",
        (
            'cookie::Cookie::parse("novalue")',
            'cookie::Cookie::parse("=abc")',
        ),
    ),
    Crate(
        "dotenv",
        "librust-dotenv-dev",
        (
            'dotenv::from_filename("no-such-file.env")',
            'dotenv::var("ERRORDEX_NO_SUCH_VAR")',
            '{ std::fs::write("/tmp/errordex-probe.env", "a b c\\n").unwrap(); dotenv::from_path_iter("/tmp/errordex-probe.env").unwrap().next().unwrap() }',
        ),
    ),
    Crate(
        "fancy-regex",
        "librust-fancy-regex-dev",
        (
            'fancy_regex::Regex::new("(a")',
            'fancy_regex::Regex::new("a)")',
            'fancy_regex::Regex::new("(?<n)")',
            'fancy_regex::Regex::new("\\\\k<nope>")',
            'fancy_regex::Regex::new("[a")',
            'fancy_regex::Regex::new("a{2,1}")',
        ),
    ),
    Crate(
        "getopts",
        "librust-getopts-dev",
        (
            'getopts::Options::new().parse(["--zzz"])',
            '{ let mut o = getopts::Options::new(); o.reqopt("n", "name", "", ""); o.parse(Vec::<String>::new()) }',
            '{ let mut o = getopts::Options::new(); o.optopt("n", "name", "", ""); o.parse(["--name"]) }',
            '{ let mut o = getopts::Options::new(); o.optflag("v", "", ""); o.parse(["-v", "-v"]) }',
            '{ let mut o = getopts::Options::new(); o.optflag("v", "", ""); o.parse(["-v=1"]) }',
        ),
    ),
    Crate(
        "globset",
        "librust-globset-dev",
        (
            'globset::Glob::new("a[")',
            'globset::Glob::new("a{b")',
            'globset::Glob::new("a}")',
            'globset::Glob::new("[z-a]")',
            'globset::Glob::new("a\\\\")',
            'globset::Glob::new("a{b{c}}")',
        ),
    ),
    Crate(
        "language-tags",
        "librust-language-tags-dev",
        (
            'language_tags::LanguageTag::parse("")',
            'language_tags::LanguageTag::parse("en-US-US-US-x")',
            'language_tags::LanguageTag::parse("a-b")',
            'language_tags::LanguageTag::parse("en-a-b-a-c")',
            'language_tags::LanguageTag::parse("123456789")',
        ),
    ),
    Crate(
        "lexopt",
        "librust-lexopt-dev",
        (
            'lexopt::Parser::from_args(["a"]).value()',
            '{ let mut p = lexopt::Parser::from_args(["--n=abc"]); let _ = p.next(); p.value().and_then(|v| lexopt::ValueExt::parse::<u32>(&v)) }',
            '{ let mut p = lexopt::Parser::from_args(["--flag=x"]); let _ = p.next(); p.next().map(|_| ()) }',
            'Err::<(), lexopt::Error>(lexopt::Arg::Long("zzz").unexpected())',
        ),
    ),
    Crate(
        "pem",
        "librust-pem-dev",
        (
            'pem::parse("junk")',
            'pem::parse("-----BEGIN A-----\\nQUJD\\n-----END B-----\\n")',
            'pem::parse("-----BEGIN A-----\\n!!!!\\n-----END A-----\\n")',
        ),
    ),
    Crate(
        "pico-args",
        "librust-pico-args-dev",
        (
            'pico_args::Arguments::from_vec(vec![]).value_from_str::<_, u32>("--n")',
            'pico_args::Arguments::from_vec(vec!["--n".into(), "x".into()]).value_from_str::<_, u32>("--n")',
            'pico_args::Arguments::from_vec(vec!["--n".into()]).value_from_str::<_, u32>("--n")',
            "pico_args::Arguments::from_vec(vec![]).free_from_str::<u32>()",
        ),
    ),
    Crate(
        "plist",
        "librust-plist-dev",
        (
            'plist::Value::from_reader(std::io::Cursor::new(&b"junk"[..]))',
            'plist::Value::from_reader_xml(&b"<plist><dict><key>a</key></dict></plist>"[..])',
            'plist::Value::from_reader_xml(&b"<plist><integer>x</integer></plist>"[..])',
            'plist::Value::from_file("no-such.plist")',
        ),
    ),
    Crate(
        "semver-parser",
        "librust-semver-parser-dev",
        (
            'semver_parser::version::parse("1.2")',
            'semver_parser::version::parse("a.b.c")',
            'semver_parser::version::parse("1.2.3-")',
            'semver_parser::version::parse("1.2.3+")',
        ),
    ),
    Crate(
        "shellexpand",
        "librust-shellexpand-dev",
        (
            'shellexpand::env("$ERRORDEX_NO_SUCH_VAR")',
            'shellexpand::full("a ${ERRORDEX_NOPE} b")',
        ),
    ),
    Crate(
        "svgtypes",
        "librust-svgtypes-dev",
        (
            '"#zzz".parse::<svgtypes::Color>()',
            '"10qq".parse::<svgtypes::Length>()',
            '"rotate(".parse::<svgtypes::Transform>()',
            '"".parse::<svgtypes::Length>()',
            '"1 2 3".parse::<svgtypes::ViewBox>()',
            'svgtypes::Paint::from_str("url(#a")',
        ),
    ),
    Crate(
        "ttf-parser",
        "librust-ttf-parser-dev",
        (
            'ttf_parser::Face::from_slice(b"junk", 0)',
            'ttf_parser::Face::from_slice(b"", 0)',
            'ttf_parser::Face::from_slice(b"ttcf\\0\\x01\\0\\0\\0\\0\\0\\x01\\0\\0\\0\\x10", 3)',
        ),
    ),
    Crate(
        "unic-langid-impl",
        "librust-unic-langid-impl-dev",
        (
            '"en-US-x".parse::<unic_langid_impl::LanguageIdentifier>()',
            '"123456789".parse::<unic_langid_impl::LanguageIdentifier>()',
            'unic_langid_impl::subtags::Region::from_bytes(b"usa")',
            'unic_langid_impl::subtags::Language::from_bytes(b"a")',
        ),
    ),
    Crate(
        "libloading",
        "librust-libloading-dev",
        (
            'unsafe { libloading::Library::new("/nonexistent/errordex.so") }',
            'unsafe { libloading::Library::new("/etc/hostname") }',
            'unsafe { libloading::Library::new("libc.so.6").unwrap().get::<fn()>(b"errordex_nope\\0").map(|_| ()) }',
        ),
    ),
    Crate(
        "xml-rs",
        "librust-xml-rs-dev",
        (
            'xml::EventReader::from_str("<a></b>").into_iter().find(|e| e.is_err()).unwrap()',
            'xml::EventReader::from_str("<a").into_iter().find(|e| e.is_err()).unwrap()',
            'xml::EventReader::from_str("<a x=1/>").into_iter().find(|e| e.is_err()).unwrap()',
            'xml::EventReader::from_str("<a>&nope;</a>").into_iter().find(|e| e.is_err()).unwrap()',
            'xml::EventReader::from_str("").into_iter().find(|e| e.is_err()).unwrap()',
        ),
    ),
    Crate(
        "json",
        "librust-json-dev",
        (
            'json::parse("{")',
            'json::parse("[1,]")',
            'json::parse("tru")',
            'json::parse("\\"\\\\x\\"")',
        ),
    ),
    Crate(
        "png",
        "librust-png-dev",
        (
            'png::Decoder::new(&b"junk"[..]).read_info().map(|_| ())',
            'png::Decoder::new(&b"\\x89PNG\\r\\n\\x1a\\n"[..]).read_info().map(|_| ())',
            'png::Decoder::new(&b"\\x89PNG\\r\\n\\x1a\\n\\0\\0\\0\\x0dIHDR\\0\\0\\0\\0\\0\\0\\0\\0\\x08\\x02\\0\\0\\0\\0\\0\\0\\0"[..]).read_info().map(|_| ())',
        ),
    ),
    Crate(
        "tiff",
        "librust-tiff-dev",
        (
            'tiff::decoder::Decoder::new(std::io::Cursor::new(b"junk".to_vec())).map(|_| ())',
            'tiff::decoder::Decoder::new(std::io::Cursor::new(b"II*\\0\\x08\\0\\0\\0".to_vec())).map(|_| ())',
            'tiff::decoder::Decoder::new(std::io::Cursor::new(b"II+\\0".to_vec())).map(|_| ())',
        ),
    ),
    Crate(
        "gif",
        "librust-gif-dev",
        (
            'gif::DecodeOptions::new().read_info(&b"junk"[..]).map(|_| ())',
            'gif::DecodeOptions::new().read_info(&b"GIF89a"[..]).map(|_| ())',
        ),
    ),
    Crate(
        "jpeg-decoder",
        "librust-jpeg-decoder-dev",
        (
            'jpeg_decoder::Decoder::new(&b"junk"[..]).decode()',
            'jpeg_decoder::Decoder::new(&b"\\xff\\xd8"[..]).decode()',
            'jpeg_decoder::Decoder::new(&b"\\xff\\xd8\\xff\\xc0\\0\\x02"[..]).decode()',
        ),
    ),
    Crate(
        "snap",
        "librust-snap-dev",
        (
            'snap::raw::Decoder::new().decompress_vec(b"\\xff\\xff\\xff\\xff\\xff")',
            'snap::raw::Decoder::new().decompress_vec(b"\\x05\\x00")',
            'snap::raw::Decoder::new().decompress_vec(b"")',
        ),
    ),
    Crate(
        "prost",
        "librust-prost-dev",
        (
            '<String as prost::Message>::decode(&b"\\x0a\\x05ab"[..])',
            '<String as prost::Message>::decode(&b"\\x0a\\x02\\xff\\xfe"[..])',
            '<u32 as prost::Message>::decode(&b"\\x0f"[..])',
        ),
    ),
    Crate(
        "base-x",
        "librust-base-x-dev",
        ('base_x::decode("01", "012")', 'base_x::decode("abc", "")'),
    ),
    Crate(
        "bytesize",
        "librust-bytesize-dev",
        ('"12 QB".parse::<bytesize::ByteSize>()', '"x".parse::<bytesize::ByteSize>()'),
    ),
    Crate(
        "httpdate",
        "librust-httpdate-dev",
        ('httpdate::parse_http_date("nope")', 'httpdate::parse_http_date("Sun, 06 Nov 1994")'),
    ),
    Crate(
        "dns-parser",
        "librust-dns-parser-dev",
        (
            'dns_parser::Packet::parse(b"abc")',
            "dns_parser::QueryType::parse(999)",
            'dns_parser::Packet::parse(b"\\0\\x01\\x01\\0\\0\\x01\\0\\0\\0\\0\\0\\0\\x05ab")',
        ),
    ),
    Crate(
        "serde-xml-rs",
        "librust-serde-xml-rs-dev",
        (
            'serde_xml_rs::from_str::<u32>("<a>x</a>")',
            'serde_xml_rs::from_str::<String>("<a")',
            'serde_xml_rs::from_str::<bool>("<a>maybe</a>")',
            'serde_xml_rs::from_str::<Point>("<p><x>1</x></p>")',
        ),
        prelude="#[derive(Debug, serde::Deserialize)] struct Point { x: u8, y: u8 }\n",
        serde=True,
    ),
    Crate(
        "tinytemplate",
        "librust-tinytemplate-dev",
        (
            '{ let mut t = tinytemplate::TinyTemplate::new(); t.add_template("a", "{ x") }',
            '{ let mut t = tinytemplate::TinyTemplate::new(); t.add_template("a", "{{ if x }}") }',
            '{ let mut t = tinytemplate::TinyTemplate::new(); t.add_template("a", "{x}").unwrap(); t.render("a", &()) }',
            '{ let t = tinytemplate::TinyTemplate::new(); t.render("nope", &()) }',
        ),
    ),
)


def main() -> None:
    clash = {c.name for c in CRATES} & {c.name for c in tuned_rust.CRATES}
    if clash:
        sys.exit(f"tuned crates in the probe set: {sorted(clash)}")
    tuned_rust.measure(CRATES, "bench-probe-rust", "probe", (__doc__ or "").splitlines()[0])


if __name__ == "__main__":
    main()
