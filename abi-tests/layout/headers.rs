//! A small scan of NVIDIA's runtime headers, done at test time: which enums
//! (with their enumerators), structs/unions and numeric `#define`s the
//! headers declare. The headers are run through the C++ preprocessor first
//! (comments and conditionals gone), then tokenized; no regular expressions.
//! Values are never taken from this scan: they come from compiled programs.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// The runtime's type headers, the ones `abi/` mirrors.
pub const HEADERS: &[&str] = &[
    "driver_types.h",
    "surface_types.h",
    "texture_types.h",
    "cuda_runtime_api.h",
];

/// The GL and EGL types the interop headers name, for machines without
/// GL/EGL development headers: plain integers and pointers, as the real
/// headers define them on Linux x86-64 (only these typedefs are used).
pub const INTEROP_STUBS: &[(&str, &str)] = &[
    (
        "GL/gl.h",
        "typedef unsigned int GLuint;\ntypedef unsigned int GLenum;\n",
    ),
    ("EGL/egl.h", "typedef int EGLint;\n"),
    (
        "EGL/eglext.h",
        "typedef void *EGLImageKHR;\ntypedef void *EGLStreamKHR;\ntypedef void *EGLSyncKHR;\n",
    ),
];

/// Writes stub headers (`(relative path, text)`) under `dir`; returns `dir`.
pub fn write_stubs(dir: &Path, stubs: &[(&str, &str)]) -> std::path::PathBuf {
    for (name, text) in stubs {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    dir.to_path_buf()
}

#[derive(Debug, Default)]
pub struct Scan {
    /// Enum name (tag and typedef name, both keys) -> enumerators in order.
    pub enums: BTreeMap<String, Vec<String>>,
    /// Each enum's names (tag and typedef names).
    pub enum_groups: Vec<Vec<String>>,
    /// Each struct's or union's names (tag and typedef names); only those
    /// with a body.
    pub record_groups: Vec<Vec<String>>,
    /// `#define NAME <integer>` (casts allowed) of `cuda*`/`CUDA*` names.
    pub numeric_defines: BTreeSet<String>,
    /// `#define cudaX cudaY` where cudaY is an enumerator (another name of
    /// it), as (cudaX, cudaY).
    pub enumerator_aliases: BTreeSet<(String, String)>,
}

/// Preprocesses `<include>/HEADERS` with `c++ -E -dD` and scans the parts
/// that come from those headers.
pub fn scan(include: &Path) -> Scan {
    let mut src = String::new();
    for h in HEADERS {
        src.push_str(&format!("#include <{h}>\n"));
    }
    let text = preprocess(&[include], &src);

    // Keep only the lines that come from our headers (line markers say
    // `# <line> "<path>" ...`).
    let mut ours = String::new();
    let mut aliases = Vec::new();
    let mut keep = false;
    let mut scan = Scan::default();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# ") {
            if let Some(q) = rest.find('"') {
                let path = rest[q + 1..].split('"').next().unwrap_or("");
                let file = path.rsplit('/').next().unwrap_or("");
                keep = path.starts_with(&*include.to_string_lossy()) && HEADERS.contains(&file);
                continue;
            }
        }
        if !keep {
            continue;
        }
        if let Some(def) = line.trim_start().strip_prefix("#define ") {
            if let Some(name) = numeric_define(def) {
                scan.numeric_defines.insert(name);
            } else if let Some((name, target)) = def.trim().split_once(' ') {
                if name.starts_with("cuda") && target.starts_with("cuda") && is_plain_ident(target)
                {
                    aliases.push((name.to_string(), target.to_string()));
                }
            }
            continue;
        }
        if line.trim_start().starts_with('#') {
            continue;
        }
        ours.push_str(line);
        ours.push('\n');
    }
    scan_declarations(&tokenize(&ours), &mut scan);
    let all_enumerators: BTreeSet<&String> = scan.enums.values().flatten().collect();
    scan.enumerator_aliases = aliases
        .into_iter()
        .filter(|(_, target)| all_enumerators.contains(target))
        .collect();
    scan
}

/// `source` run through `c++ -E -dD` (the `#define`s kept) with the
/// `includes` folders, in order.
pub fn preprocess(includes: &[&Path], source: &str) -> String {
    let mut cmd = Command::new(cxx());
    cmd.args(["-x", "c++", "-std=c++17", "-E", "-dD"]);
    for dir in includes {
        cmd.arg("-I").arg(dir);
    }
    let out = cmd
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(source.as_bytes())?;
            child.wait_with_output()
        })
        .expect("run the C++ preprocessor");
    assert!(
        out.status.success(),
        "preprocessing the CUDA headers failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn is_plain_ident(s: &str) -> bool {
    is_ident(s) && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The C++ compiler (`CXX`, else `g++`).
pub fn cxx() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "g++".to_string())
}

/// `NAME VALUE` of a `#define` -> NAME when it is a `cuda`/`CUDA` name and
/// VALUE is an integer, possibly negative and in casts/parentheses.
fn numeric_define(def: &str) -> Option<String> {
    let (name, value) = def.split_once(char::is_whitespace)?;
    if !(name.starts_with("cuda") || name.starts_with("CUDA")) || name.contains('(') {
        return None;
    }
    let toks = tokenize(value);
    let mut rest: Vec<&str> = toks
        .iter()
        .map(String::as_str)
        .filter(|t| *t != "(" && *t != ")")
        .collect();
    // Drop one leading cast type, e.g. `(int)-1` or `(cudaStream_t)0x1`.
    if rest.len() > 1 && is_ident(rest[0]) {
        rest.remove(0);
    }
    if rest.first() == Some(&"-") {
        rest.remove(0);
    }
    (rest.len() == 1 && rest[0].starts_with(|c: char| c.is_ascii_digit())).then(|| name.to_string())
}

fn is_ident(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

/// Identifiers/numbers as one token each, every other non-space char alone.
pub fn tokenize(s: &str) -> Vec<String> {
    let mut toks = Vec::new();
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            toks.push(b[start..i].iter().collect());
        } else if c == '"' {
            // skip string literals (attributes, asm names)
            i += 1;
            while i < b.len() && b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else {
            toks.push(c.to_string());
            i += 1;
        }
    }
    toks
}

/// Index of the token closing the bracket opened at `open`.
fn matching(t: &[String], open: usize) -> usize {
    let (o, c) = (t[open].as_str(), if t[open] == "{" { "}" } else { ")" });
    let mut depth = 0;
    for (i, tok) in t.iter().enumerate().skip(open) {
        if tok == o {
            depth += 1;
        } else if tok == c {
            depth -= 1;
            if depth == 0 {
                return i;
            }
        }
    }
    panic!("unbalanced {o} in the headers");
}

/// Top-level `enum`, `struct` and `union` declarations with bodies.
fn scan_declarations(t: &[String], scan: &mut Scan) {
    let mut i = 0;
    while i < t.len() {
        let typedef = t[i] == "typedef";
        let kw = if typedef { i + 1 } else { i };
        if kw >= t.len() || !matches!(t[kw].as_str(), "enum" | "struct" | "union") {
            // Skip over braces at top level (function bodies), but step
            // into `extern "C" {` blocks.
            if t[i] == "{" && (i == 0 || t[i - 1] != "extern") {
                i = matching(t, i);
            }
            i += 1;
            continue;
        }
        // The tag: the last identifier before `{` (skips attributes).
        let mut j = kw + 1;
        let mut tag = None;
        while j < t.len() && t[j] != "{" && t[j] != ";" {
            if matches!(t[j].as_str(), ")" | "," | "*" | "&") {
                // A type in a parameter list or a pointer typedef.
                break;
            }
            if t[j] == "(" {
                j = matching(t, j);
            } else if is_ident(&t[j]) {
                tag = Some(t[j].clone());
            }
            j += 1;
        }
        if j >= t.len() || t[j] != "{" {
            // `typedef enum X Y;` names X again; anything else here is a
            // forward declaration, a pointer typedef or a parameter type.
            if typedef && j < t.len() && t[j] == ";" && j == kw + 3 {
                let (x, y) = (&t[kw + 1], &t[kw + 2]);
                let groups = if t[kw] == "enum" {
                    &mut scan.enum_groups
                } else {
                    &mut scan.record_groups
                };
                if let Some(g) = groups.iter_mut().find(|g| g.contains(x)) {
                    g.push(y.clone());
                }
                if let Some(list) = scan.enums.get(x).cloned() {
                    scan.enums.insert(y.clone(), list);
                }
            }
            i = j + 1;
            continue;
        }
        let close = matching(t, j);
        // A typedef name follows the body: `} NAME ;`.
        let mut alias = None;
        if typedef {
            let mut k = close + 1;
            while k < t.len() && t[k] != ";" {
                if is_ident(&t[k]) {
                    alias = Some(t[k].clone());
                }
                k += 1;
            }
        }
        let names: Vec<String> = tag.iter().chain(alias.iter()).cloned().collect();
        if t[kw] == "enum" {
            let enumerators = enumerators(&t[j + 1..close]);
            for n in &names {
                scan.enums.insert(n.clone(), enumerators.clone());
            }
            scan.enum_groups.push(names);
        } else {
            scan.record_groups.push(names);
        }
        i = close + 1;
    }
}

/// The enumerator names of an enum body.
fn enumerators(body: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut expect_name = true;
    let mut depth = 0;
    for tok in body {
        match tok.as_str() {
            "(" => depth += 1,
            ")" => depth -= 1,
            "," if depth == 0 => expect_name = true,
            _ if expect_name && is_ident(tok) => {
                out.push(tok.clone());
                expect_name = false;
            }
            _ => {}
        }
    }
    out
}
