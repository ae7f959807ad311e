//! The exports' prototypes, parsed from the preprocessed real headers,
//! and the headers' enums (for values past the last enumerator).

use super::*;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Normalized type: single spaces, `*` as its own word (`const void *`).
    pub ty: String,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proto {
    pub name: String,
    pub ret: String,
    pub params: Vec<Param>,
    /// Where it came from: "header" or "prototypes.txt".
    pub origin: &'static str,
}

/// `const void*` -> `const void *`; `void *const *` -> `void * const *`.
pub fn norm_type(t: &str) -> String {
    t.replace('*', " * ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

pub(super) fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch == '_' || ch.is_ascii_alphabetic())
        && c.all(|ch| ch == '_' || ch.is_ascii_alphanumeric())
}

/// Removes every `__attribute__((...))` (balanced parentheses).
pub(super) fn strip_attributes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("__attribute__") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "__attribute__".len()..];
        let Some(open) = after.find('(') else {
            rest = after;
            continue;
        };
        let mut depth = 0;
        let mut end = after.len();
        for (j, ch) in after[open..].char_indices() {
            match ch {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + j + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Splits at the commas outside parentheses (default arguments may call).
pub(super) fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, ch) in s.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// One parameter declaration (`const void *func = 0`) -> type and name.
pub(super) fn parse_param(p: &str) -> Result<Param, String> {
    let p = p.split('=').next().unwrap_or("").trim();
    let spaced = norm_type(p);
    let words: Vec<&str> = spaced.split(' ').collect();
    let last = *words.last().ok_or("empty parameter")?;
    if words.len() < 2 || !is_ident(last) {
        return Err(format!("parameter without a name: {p:?}"));
    }
    Ok(Param {
        ty: words[..words.len() - 1].join(" "),
        name: last.to_string(),
    })
}

/// The declarations parsed from a text, and the names whose parameter
/// list could not be parsed (with why).
pub struct Parsed {
    pub protos: Vec<Proto>,
    pub failed: BTreeMap<String, String>,
}

/// Every function declaration in `text` (preprocessed C/C++): with
/// `extern_only`, only those introduced by `extern` (the headers' style);
/// otherwise every `RET NAME(PARAMS);` statement (prototypes.txt).
pub fn parse_prototypes(text: &str, extern_only: bool, origin: &'static str) -> Parsed {
    let text = strip_attributes(text);
    // Comment lines (prototypes.txt) go first: they may hold ';'.
    let text: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut protos = Vec::new();
    let mut failed = BTreeMap::new();
    // Statements end at ';', '{' or '}'.
    for stmt in text.split([';', '{', '}']) {
        let joined: String;
        let body = if extern_only {
            let Some(i) = stmt.rfind("extern ") else {
                continue;
            };
            let b = stmt[i + "extern ".len()..].trim();
            if b.starts_with('"') {
                continue;
            }
            b
        } else {
            joined = stmt.split_whitespace().collect::<Vec<_>>().join(" ");
            joined.as_str()
        };
        let Some(open) = body.find('(') else {
            continue;
        };
        // The parameter list ends at the matching parenthesis (C++
        // declarations may go on with `noexcept (true)`).
        let mut depth = 0;
        let mut close = None;
        for (j, ch) in body[open..].char_indices() {
            match ch {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + j);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            continue;
        };
        let head = body[..open].trim_end();
        let name_start = head
            .rfind(|c: char| !(c == '_' || c.is_ascii_alphanumeric()))
            .map_or(0, |i| i + 1);
        let name = &head[name_start..];
        let ret = norm_type(&head[..name_start]);
        if !is_ident(name) || ret.is_empty() || ret.starts_with("typedef") {
            continue;
        }
        let inner = body[open + 1..close].trim();
        let params = if inner.is_empty() || inner == "void" {
            Vec::new()
        } else {
            match split_top_level(inner)
                .into_iter()
                .map(parse_param)
                .collect::<Result<Vec<_>, _>>()
            {
                Ok(p) => p,
                Err(e) => {
                    // Only an error if someone asks for this function.
                    failed.insert(name.to_string(), e);
                    continue;
                }
            }
        };
        let ret = ret
            .split(' ')
            .filter(|w| !matches!(*w, "static" | "inline" | "__inline__"))
            .collect::<Vec<_>>()
            .join(" ");
        protos.push(Proto {
            name: name.to_string(),
            ret,
            params,
            origin,
        });
    }
    Parsed { protos, failed }
}

/// The stand-ins for the window-system headers the interop headers
/// include: only the typedefs those headers use (from the public GL, EGL
/// and VDPAU APIs).
pub(super) const STUB_HEADERS: &[(&str, &str)] = &[
    (
        "GL/gl.h",
        "typedef unsigned int GLuint;\ntypedef unsigned int GLenum;\n",
    ),
    (
        "EGL/egl.h",
        "#include <stdint.h>\ntypedef int32_t EGLint;\n",
    ),
    (
        "EGL/eglext.h",
        "typedef void *EGLImageKHR;\ntypedef void *EGLStreamKHR;\ntypedef void *EGLSyncKHR;\n",
    ),
    (
        "vdpau/vdpau.h",
        "#include <stdint.h>\ntypedef uint32_t VdpDevice;\ntypedef uint32_t VdpVideoSurface;\n\
         typedef uint32_t VdpOutputSurface;\ntypedef uint32_t VdpFuncId;\ntypedef int VdpStatus;\n\
         typedef VdpStatus VdpGetProcAddress(VdpDevice device, VdpFuncId function_id, void **function_pointer);\n",
    ),
];

/// The headers the harness includes (and the prototypes come from).
pub(super) const HEADERS: &[&str] = &[
    "cuda_runtime_api.h",
    "cuda_gl_interop.h",
    "cuda_egl_interop.h",
    "cuda_vdpau_interop.h",
];

pub(super) fn write_stubs(work: &Path) -> PathBuf {
    let stub = work.join("stub");
    for (name, text) in STUB_HEADERS {
        let p = stub.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).expect("stub folder");
        std::fs::write(
            &p,
            format!("/* harness stand-in, see abi-tests/harness/gen/ */\n{text}"),
        )
        .expect("write stub header");
    }
    stub
}

pub(super) fn preprocess(work: &Path, stub: &Path, per_thread: bool) -> String {
    let src = work.join("headers.cpp");
    let text: String = HEADERS
        .iter()
        .map(|h| format!("#include <{h}>\n"))
        .collect();
    std::fs::write(&src, text).expect("write headers.cpp");
    let cxx = std::env::var_os("CXX").unwrap_or_else(|| "c++".into());
    let mut cmd = Command::new(cxx);
    cmd.args(["-E", "-P", "-x", "c++", "-I"])
        .arg(stub)
        .arg("-I")
        .arg(cuda_home().join("include"));
    if per_thread {
        cmd.arg("-DCUDA_API_PER_THREAD_DEFAULT_STREAM");
    }
    let out = run_ok(cmd.arg(&src));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The prototype of every export, by name, from the headers and
/// prototypes.txt; an error names every export without one.
pub fn export_prototypes(work: &Path, exports: &[String]) -> Result<(Vec<Proto>, Enums), String> {
    let stub = write_stubs(work);
    let mut from_headers: BTreeMap<String, Proto> = BTreeMap::new();
    let mut failed = BTreeMap::new();
    let mut enums = Enums::default();
    for per_thread in [false, true] {
        let text = preprocess(work, &stub, per_thread);
        if !per_thread {
            enums = parse_enums(&text);
        }
        let parsed = parse_prototypes(&text, true, "header");
        failed.extend(parsed.failed);
        for p in parsed.protos {
            if let Some(old) = from_headers.get(&p.name) {
                if old.ret != p.ret || old.params != p.params {
                    return Err(format!(
                        "{}: two different declarations in the headers: {old:?} and {p:?}",
                        p.name
                    ));
                }
            } else {
                from_headers.insert(p.name.clone(), p);
            }
        }
    }
    let ours_path = harness_src_dir().join("prototypes.txt");
    let ours_text = std::fs::read_to_string(&ours_path).expect("prototypes.txt");
    let parsed = parse_prototypes(&ours_text, false, "prototypes.txt");
    failed.extend(parsed.failed);
    let ours = parsed.protos;
    let export_set: BTreeSet<&str> = exports.iter().map(String::as_str).collect();
    let mut problems = Vec::new();
    let mut ours_map = BTreeMap::new();
    for p in ours {
        if from_headers.contains_key(&p.name) {
            problems.push(format!(
                "{} is in prototypes.txt but a public header declares it",
                p.name
            ));
        }
        if !export_set.contains(p.name.as_str()) {
            problems.push(format!("{} is in prototypes.txt but not an export", p.name));
        }
        ours_map.insert(p.name.clone(), p);
    }
    let mut out = Vec::new();
    for e in exports {
        match from_headers.get(e).or_else(|| ours_map.get(e)) {
            Some(p) => out.push(p.clone()),
            None if failed.contains_key(e) => {
                problems.push(format!("{e}: cannot parse its declaration: {}", failed[e]))
            }
            None => problems.push(format!(
                "{e}: no public header declares it; add its prototype to abi-tests/harness/prototypes.txt"
            )),
        }
    }
    if problems.is_empty() {
        Ok((out, enums))
    } else {
        Err(problems.join("\n"))
    }
}

// ---------------------------------------------------------------------------
// Enums (for the bad-input matrix: a value past the last enumerator).

/// The enums of the headers: `enum NAME` by NAME (typedef names too), with
/// the largest enumerator value, or None when an enumerator's value is an
/// expression [`eval_enumerator`] cannot evaluate.
#[derive(Default, Debug)]
pub struct Enums {
    pub max: BTreeMap<String, Option<i64>>,
}

impl Enums {
    /// The largest value of the enum a parameter of type `ty` holds
    /// (`enum cudaMemcpyKind`, `cudaError_t`...); None for other types,
    /// Some(None) for an enum without a known maximum.
    pub fn max_of(&self, ty: &str) -> Option<Option<i64>> {
        let name = ty.strip_prefix("enum ").unwrap_or(ty);
        self.max.get(name).copied()
    }
}

/// `1<<2`, `0x10u`, `-3`, `(4)`, or an enumerator already seen.
pub(super) fn eval_enumerator(expr: &str, known: &BTreeMap<String, i64>) -> Option<i64> {
    let x = expr.trim();
    if let Some(inner) = x.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        return eval_enumerator(inner, known);
    }
    if let Some((a, b)) = x.split_once("<<") {
        return Some(eval_enumerator(a, known)? << eval_enumerator(b, known)?);
    }
    if let Some(rest) = x.strip_prefix('-') {
        return eval_enumerator(rest, known).map(|v| -v);
    }
    if let Some(v) = known.get(x) {
        return Some(*v);
    }
    let digits = x.trim_end_matches(['u', 'U', 'l', 'L']);
    match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i64::from_str_radix(hex, 16).ok(),
        None => digits.parse().ok(),
    }
}

/// Every `enum NAME { ... }` (and `typedef enum [NAME] { ... } ALIAS;`,
/// `typedef enum NAME ALIAS;`) of a preprocessed text.
pub fn parse_enums(text: &str) -> Enums {
    let ident_end = |s: &str| {
        s.find(|c: char| !(c == '_' || c.is_ascii_alphanumeric()))
            .unwrap_or(s.len())
    };
    let mut enums = Enums::default();
    let mut aliases = Vec::new();
    let mut known: BTreeMap<String, i64> = BTreeMap::new();
    let mut rest = text;
    while let Some(i) = rest.find("enum") {
        let before = &rest[..i];
        let after = &rest[i + 4..];
        let starts_word = !before.ends_with(|c: char| c == '_' || c.is_ascii_alphanumeric());
        if !starts_word || !after.starts_with(char::is_whitespace) {
            rest = after;
            continue;
        }
        let typedef = before.trim_end().ends_with("typedef");
        let a = after.trim_start();
        let n = ident_end(a);
        let name = &a[..n];
        let a2 = a[n..].trim_start();
        if !a2.starts_with('{') {
            // `typedef enum NAME ALIAS;`
            let m = ident_end(a2);
            if typedef && !name.is_empty() && m > 0 && a2[m..].trim_start().starts_with(';') {
                aliases.push((a2[..m].to_string(), name.to_string()));
            }
            rest = after;
            continue;
        }
        let Some(close) = a2.find('}') else { break };
        let body = &a2[1..close];
        let mut max: Option<i64> = None;
        let mut ok = true;
        let mut next = 0i64;
        for item in body.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let (en, val) = match item.split_once('=') {
                Some((en, ex)) => (en.trim(), eval_enumerator(ex, &known)),
                None => (item, Some(next)),
            };
            match val {
                Some(v) => {
                    known.insert(en.to_string(), v);
                    max = Some(max.map_or(v, |m: i64| m.max(v)));
                    next = v + 1;
                }
                None => ok = false,
            }
        }
        let max = if ok { max } else { None };
        if !name.is_empty() {
            enums.max.insert(name.to_string(), max);
        }
        let tail = a2[close + 1..].trim_start();
        let m = ident_end(tail);
        if typedef && m > 0 {
            enums.max.insert(tail[..m].to_string(), max);
        }
        rest = &a2[close + 1..];
    }
    for (alias, name) in aliases {
        if let Some(m) = enums.max.get(&name).copied() {
            enums.max.insert(alias, m);
        }
    }
    enums
}
