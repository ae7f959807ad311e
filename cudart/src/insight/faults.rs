//! Deterministic fault injection (`CUDART_FAULTS`): which runtime calls
//! fail, and with which error, so that a program's error paths can be run
//! on a healthy device, the same way on every run. This room holds the
//! grammar, its parser and the decision for one call ([`Plan::decide`]).
//!
//! ```text
//! CUDART_FAULTS = RULE[,RULE...]
//! RULE   = TARGET ":" WHEN "=" ERROR
//! TARGET = API | "launch:" KERNEL
//! WHEN   = N | N-M | N+ | * | *%K
//! ERROR  = a cudaError_t name (cudaErrorMemoryAllocation) or its number (2)
//! ```
//!
//! - API is a runtime function's name without the `_ptds`/`_ptsz` suffix
//!   of its per-thread-default-stream variant (`cudaMalloc`,
//!   `cudaMemcpyAsync`): the rule counts the calls of that function, both
//!   variants together. `cudaLaunchKernel` counts `<<<...>>>` launches.
//! - `launch:KERNEL` counts the launches of one kernel, through any launch
//!   call. KERNEL is its registered name (`_Z6vecAddPKfS0_Pfi`, or `vecAdd`
//!   for an `extern "C"` kernel), the function's name inside a mangled name
//!   (`vecAdd`), or its qualified name (`ns::vecAdd` for
//!   `_ZN2ns6vecAddEPf`). Template arguments are not part of the name:
//!   `launch:scale` counts `scale<float>` and `scale<int>` together.
//!   `launch:*` counts every launch.
//! - WHEN picks calls by the rule's own count, from 1: `N` the Nth call
//!   only; `N-M` the Nth to the Mth; `N+` the Nth and every later one; `*`
//!   every call; `*%K` every Kth call (the Kth, 2Kth, 3Kth...).
//! - ERROR is the error the picked calls return. `cudaSuccess` (0) and
//!   codes the runtime does not know are refused.
//!
//! Each rule counts the calls that match its target, whether or not
//! another rule fires on them; a call fails with the error of the first
//! rule, in written order, that fires. The counts are shared by all
//! threads: with several threads calling, "call 3" is the third call to
//! reach the count. Spaces around rules and their parts are ignored, and
//! an empty value injects nothing. A value with a bad rule is refused
//! whole, and the message names the rule and what is wrong with it.
//!
//! Example: `CUDART_FAULTS=cudaMalloc:3=cudaErrorMemoryAllocation,launch:vecAdd:*%10=719`
//! fails the third `cudaMalloc` with `cudaErrorMemoryAllocation` and every
//! tenth launch of `vecAdd` with `cudaErrorLaunchFailure` (719).

use crate::abi::cudaError_t;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a bad WHEN is told.
const WHEN_FORMS: &str = "WHEN must be N, N-M, N+, * or *%K";
/// The shape of a rule, for the messages about a missing part.
const RULE_FORM: &str = "a rule is TARGET:WHEN=ERROR";

/// The parsed value of `CUDART_FAULTS`: its rules in written order, each
/// with its own count of the calls it matched. Shared by all threads.
#[derive(Debug)]
pub(crate) struct Plan {
    rules: Vec<Rule>,
}

/// A call the plan fails ([`Plan::decide`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Injection {
    /// The error the call returns.
    pub(crate) error: cudaError_t,
    /// The firing rule's count of this call (from 1).
    pub(crate) call: u64,
    /// The firing rule's position in the value, from 1 (as the messages
    /// and [`Plan::describe`] number rules).
    pub(crate) rule: usize,
}

/// One rule: what it counts, which of those calls fail, and how.
#[derive(Debug)]
struct Rule {
    target: Target,
    when: When,
    error: cudaError_t,
    /// The rule as written (trimmed), for [`Plan::why`].
    text: String,
    /// The calls that matched `target` so far.
    calls: AtomicU64,
}

/// What a rule counts.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    /// Calls of the runtime function of this name (no `_ptds`/`_ptsz`).
    Api(String),
    /// Launches of the kernels this name matches ([`kernel_matches`]).
    Launch(String),
}

/// Which of its calls a rule fails, by the rule's count (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum When {
    /// `N`: the Nth call only.
    Nth(u64),
    /// `N-M`: calls N to M, inclusive.
    Range(u64, u64),
    /// `N+`: the Nth call and every later one.
    From(u64),
    /// `*`: every call.
    Every,
    /// `*%K`: every Kth call (K, 2K, 3K...).
    EveryKth(u64),
}

impl Plan {
    /// Parses a `CUDART_FAULTS` value (grammar in the header). The error
    /// names the first bad rule, by position and text, and why it is bad.
    pub(crate) fn parse(spec: &str) -> Result<Plan, String> {
        if spec.trim().is_empty() {
            return Ok(Plan { rules: Vec::new() });
        }
        let rules = spec
            .split(',')
            .enumerate()
            .map(|(i, text)| {
                let text = text.trim();
                Rule::parse(text)
                    .map_err(|why| format!("CUDART_FAULTS: rule {} `{text}`: {why}", i + 1))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Plan { rules })
    }

    /// For one call: `api` the export's name without `_ptds`/`_ptsz`;
    /// `kernel` the registered name of the kernel a launch starts, `None`
    /// for other calls. Counts the call for every rule it matches (API
    /// rules by `api`, `launch:` rules by `kernel`), and returns the error
    /// of the first rule, in written order, that fires on it.
    pub(crate) fn decide(&self, api: &str, kernel: Option<&str>) -> Option<Injection> {
        let mut first = None;
        for (i, rule) in self.rules.iter().enumerate() {
            let matches = match &rule.target {
                Target::Api(name) => name == api,
                Target::Launch(want) => kernel.is_some_and(|k| kernel_matches(want, k)),
            };
            if !matches {
                continue;
            }
            let call = rule.calls.fetch_add(1, Ordering::Relaxed).saturating_add(1);
            if first.is_none() && rule.when.fires(call) {
                first = Some(Injection {
                    error: rule.error,
                    call,
                    rule: i + 1,
                });
            }
        }
        first
    }

    /// The plan in one line, for stderr at start: "cudaMalloc call 3 ->
    /// cudaErrorMemoryAllocation; launch of vecAdd every 10th call ->
    /// cudaErrorLaunchFailure", or "no faults".
    pub(crate) fn describe(&self) -> String {
        if self.rules.is_empty() {
            return "no faults".to_string();
        }
        let rules: Vec<String> = self.rules.iter().map(Rule::describe).collect();
        rules.join("; ")
    }

    /// Why `injection` fired, for a log line: "CUDART_FAULTS rule 2
    /// `launch:vecAdd:*%10=719` (launch of vecAdd every 10th call ->
    /// cudaErrorLaunchFailure): call 20".
    pub(crate) fn why(&self, injection: &Injection) -> String {
        let Injection { rule, call, error } = *injection;
        match self.rules.get(rule.wrapping_sub(1)) {
            Some(r) => format!(
                "CUDART_FAULTS rule {rule} `{}` ({}): call {call}",
                r.text,
                r.describe()
            ),
            None => format!(
                "CUDART_FAULTS rule {rule}: call {call} -> {}",
                error_name(error)
            ),
        }
    }
}

impl Rule {
    /// Parses one trimmed rule; the error says what is wrong with it.
    fn parse(text: &str) -> Result<Rule, String> {
        if text.is_empty() {
            return Err(format!("empty rule ({RULE_FORM})"));
        }
        // Kernel names hold no `=`, WHEN no `:`: split at the last of each.
        let (lhs, error) = text
            .rsplit_once('=')
            .ok_or_else(|| format!("missing `=ERROR` ({RULE_FORM})"))?;
        let (target, when) = lhs
            .rsplit_once(':')
            .ok_or_else(|| format!("missing `:WHEN` ({RULE_FORM})"))?;
        Ok(Rule {
            target: Target::parse(target.trim())?,
            when: When::parse(when.trim())?,
            error: parse_error(error.trim())?,
            text: text.to_string(),
            calls: AtomicU64::new(0),
        })
    }

    /// "TARGET WHEN -> ERROR" in words.
    fn describe(&self) -> String {
        let target = match &self.target {
            Target::Api(name) => name.clone(),
            Target::Launch(k) if k == "*" => "launch of any kernel".to_string(),
            Target::Launch(k) => format!("launch of {k}"),
        };
        format!(
            "{target} {} -> {}",
            self.when.describe(),
            error_name(self.error)
        )
    }
}

impl Target {
    /// Parses a trimmed TARGET: `launch:KERNEL` or an API name.
    fn parse(s: &str) -> Result<Target, String> {
        if let Some(kernel) = s.strip_prefix("launch:") {
            let kernel = kernel.trim();
            if kernel_name_ok(kernel) {
                return Ok(Target::Launch(kernel.to_string()));
            }
            return Err(format!(
                "KERNEL `{kernel}` is not a kernel name (a registered name, ns::name or *)"
            ));
        }
        if s == "launch" {
            return Err("a launch rule is launch:KERNEL:WHEN=ERROR".to_string());
        }
        if s.is_empty() {
            return Err(format!("TARGET is empty ({RULE_FORM})"));
        }
        if !is_identifier(s) {
            return Err(format!(
                "TARGET `{s}` is not an API name (cudaMalloc) or launch:KERNEL"
            ));
        }
        for suffix in ["_ptds", "_ptsz"] {
            if let Some(base) = s.strip_suffix(suffix) {
                return Err(format!(
                    "name the API without {suffix}: `{base}` counts both"
                ));
            }
        }
        Ok(Target::Api(s.to_string()))
    }
}

impl When {
    /// Parses a trimmed WHEN.
    fn parse(s: &str) -> Result<When, String> {
        let when = if s == "*" {
            When::Every
        } else if let Some(k) = s.strip_prefix("*%") {
            When::EveryKth(count(k)?)
        } else if let Some(n) = s.strip_suffix('+') {
            When::From(count(n)?)
        } else if let Some((n, m)) = s.split_once('-') {
            When::Range(count(n)?, count(m)?)
        } else {
            When::Nth(count(s)?)
        };
        match when {
            When::EveryKth(0) => Err("*%K needs K of at least 1".to_string()),
            When::Nth(0) | When::From(0) | When::Range(0, _) => {
                Err("calls count from 1: N must be at least 1".to_string())
            }
            When::Range(n, m) if m < n => Err(format!("N-M needs N <= M ({n}-{m} picks no call)")),
            when => Ok(when),
        }
    }

    /// Whether the rule's `call`th call fails.
    fn fires(self, call: u64) -> bool {
        match self {
            When::Nth(n) => call == n,
            When::Range(n, m) => (n..=m).contains(&call),
            When::From(n) => call >= n,
            When::Every => true,
            When::EveryKth(k) => call.checked_rem(k) == Some(0),
        }
    }

    /// The calls picked, in words: "call 3", "every 10th call".
    fn describe(self) -> String {
        match self {
            When::Nth(n) => format!("call {n}"),
            When::Range(n, m) => format!("calls {n} to {m}"),
            When::From(n) => format!("calls {n} and later"),
            When::Every | When::EveryKth(1) => "every call".to_string(),
            When::EveryKth(k) => {
                let th = match (k % 100, k % 10) {
                    (11..=13, _) => "th",
                    (_, 1) => "st",
                    (_, 2) => "nd",
                    (_, 3) => "rd",
                    _ => "th",
                };
                format!("every {k}{th} call")
            }
        }
    }
}

/// A count in WHEN: decimal digits (no sign), spaces around ignored.
fn count(s: &str) -> Result<u64, String> {
    let s = s.trim();
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(WHEN_FORMS.to_string());
    }
    s.parse().map_err(|_| format!("count `{s}` is too large"))
}

/// Parses a trimmed ERROR: a known cudaError_t name or number, not 0.
fn parse_error(s: &str) -> Result<cudaError_t, String> {
    if s.is_empty() {
        return Err(format!("ERROR is empty ({RULE_FORM})"));
    }
    let error = if s.bytes().all(|b| b.is_ascii_digit()) {
        s.parse::<i32>()
            .ok()
            .map(cudaError_t)
            .filter(|e| cudaError_t::ALL.contains(e))
            .ok_or_else(|| format!("unknown error code {s}"))?
    } else {
        cudaError_t::ALL
            .iter()
            .copied()
            .find(|e| e.name().to_bytes() == s.as_bytes())
            .ok_or_else(|| format!("unknown error `{s}` (a cudaError_t name, or its number)"))?
    };
    if error.is_success() {
        return Err("cudaSuccess (0) is not an error".to_string());
    }
    Ok(error)
}

/// The error's C name (`cudaErrorMemoryAllocation`).
fn error_name(error: cudaError_t) -> &'static str {
    error.name().to_str().unwrap_or("unrecognized error code")
}

/// A C identifier: a letter or `_`, then letters, digits and `_`.
fn is_identifier(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Bytes of a symbol name, a mangled one included (`.` of clones, `$`).
fn symbol_chars(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_$.".contains(&b))
}

/// A KERNEL of a rule: `*`, or names of symbol bytes joined by `::`.
fn kernel_name_ok(k: &str) -> bool {
    k == "*" || k.split("::").all(symbol_chars)
}

/// Whether a rule's KERNEL `want` matches a launch of the kernel
/// registered as `registered`: `*`, the same name, the last source name
/// inside a mangled name ([`base_name`]), or, for `want` with `::`, all of
/// the mangled name's source names ([`walk`]).
fn kernel_matches(want: &str, registered: &str) -> bool {
    if want == "*" || want == registered {
        return true;
    }
    if !want.contains("::") {
        return base_name(registered) == Some(want);
    }
    let mut parts = want.split("::");
    let mut same = true;
    let parsed = walk(registered, |name| same &= parts.next() == Some(name)).is_some();
    parsed && same && parts.next().is_none()
}

/// The function's own name inside an Itanium mangled name, without its
/// scopes and template arguments: `_Z6vecAddPKfS0_Pfi` -> `vecAdd`,
/// `_ZN2ns6vecAddEPf` -> `vecAdd`, `_Z5scaleIfEvPT_` -> `scale`. `None` for
/// names that are not mangled (`vecAdd`) or not a plain function's.
fn base_name(mangled: &str) -> Option<&str> {
    let mut last = None;
    walk(mangled, |name| last = Some(name))?;
    last
}

/// Calls `each` with the source names of a mangled function's name,
/// outermost first (`_ZN2ns1kEv`: `ns`, `k`; `_ZSt3maxIiEvT_`: `std`,
/// `max`), and returns `None` when `mangled` is not such a name. Handles
/// `_Z` and `_ZN...E` names with their CV and ref qualifiers, `St`
/// (`std::`), `L` (internal linkage) and ABI tags (`B5cxx11`). Template
/// arguments (`I...E`) end the name: they follow its last source name for
/// any function a kernel can be (a member of a class template is not one).
fn walk<'a>(mangled: &'a str, mut each: impl FnMut(&'a str)) -> Option<()> {
    let mut rest = mangled.strip_prefix("_Z")?;
    let nested = rest.starts_with('N');
    if let Some(after) = rest.strip_prefix('N') {
        let after = after.trim_start_matches(['r', 'V', 'K']);
        rest = after.strip_prefix(['R', 'O']).unwrap_or(after);
    }
    if let Some(after) = rest.strip_prefix("St") {
        each("std");
        rest = after;
    }
    loop {
        let (name, mut after) = source_name(rest.strip_prefix('L').unwrap_or(rest))?;
        each(name);
        while let Some(tag) = after.strip_prefix('B') {
            after = source_name(tag)?.1;
        }
        if !nested || after.starts_with(['E', 'I']) {
            return Some(());
        }
        rest = after;
    }
}

/// Splits `<length><identifier>` (`6vecAdd...`) off the front of `s`.
fn source_name(s: &str) -> Option<(&str, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || s.starts_with('0') {
        return None;
    }
    let len: usize = s.get(..digits)?.parse().ok()?;
    let end = digits.checked_add(len)?;
    let name = s.get(digits..end)?;
    symbol_chars(name).then_some((name, s.get(end..)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(spec: &str) -> Plan {
        Plan::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"))
    }

    /// (rule, call, error code) of what `plan` decides for one call.
    fn hit(plan: &Plan, api: &str, kernel: Option<&str>) -> Option<(usize, u64, i32)> {
        plan.decide(api, kernel)
            .map(|i| (i.rule, i.call, i.error.0))
    }

    #[test]
    fn every_when_form_picks_its_calls() {
        let cases: [(&str, &[u64]); 8] = [
            ("3", &[3]),
            ("2-4", &[2, 3, 4]),
            ("5-5", &[5]),
            ("8+", &[8, 9, 10]),
            ("*", &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
            ("*%3", &[3, 6, 9]),
            ("*%1", &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
            (" 1 - 2 ", &[1, 2]),
        ];
        for (when, want) in cases {
            let plan = parse(&format!(" cudaMalloc :{when}= 2 "));
            let fired: Vec<u64> = (0..10)
                .filter_map(|_| hit(&plan, "cudaMalloc", None))
                .map(|h| h.1)
                .collect();
            assert_eq!(fired, want, "{when}");
        }
    }

    #[test]
    fn each_rule_counts_its_own_calls_and_the_first_firing_one_wins() {
        let plan = parse("cudaMalloc:2=2,cudaFree:2=1,cudaMalloc:3=999");
        assert_eq!(hit(&plan, "cudaFree", None), None);
        assert_eq!(hit(&plan, "cudaMalloc", None), None);
        // Rule 1 fires on call 2 of cudaMalloc; rule 3 counts it anyway.
        assert_eq!(hit(&plan, "cudaMalloc", None), Some((1, 2, 2)));
        assert_eq!(hit(&plan, "cudaMalloc", None), Some((3, 3, 999)));
        assert_eq!(hit(&plan, "cudaFree", None), Some((2, 2, 1)));
        assert_eq!(hit(&plan, "cudaMallocHost", Some("k")), None);
        let plan = parse("cudaMalloc:2+=2,cudaMalloc:*=1");
        let got: Vec<_> = (0..3)
            .filter_map(|_| hit(&plan, "cudaMalloc", None))
            .collect();
        assert_eq!(got, [(2, 1, 1), (1, 2, 2), (1, 3, 2)]);
    }

    #[test]
    fn why_names_the_rule() {
        let plan = parse("cudaFree:1=1,cudaMalloc:2=cudaErrorMemoryAllocation");
        let inj = (0..2).find_map(|_| plan.decide("cudaMalloc", None));
        let inj = inj.unwrap_or_else(|| panic!("no injection"));
        assert_eq!(
            plan.why(&inj),
            "CUDART_FAULTS rule 2 `cudaMalloc:2=cudaErrorMemoryAllocation` \
             (cudaMalloc call 2 -> cudaErrorMemoryAllocation): call 2"
        );
        assert!(plan
            .why(&Injection { rule: 0, ..inj })
            .contains("rule 0: call 2"));
    }

    #[test]
    fn launches_match_by_registered_base_and_qualified_name() {
        let nested = "_ZN5outer5inner5scaleIfEEvPT_i";
        let cases = [
            ("vecAdd", "_Z6vecAddPKfS0_Pfi", true),
            ("_Z6vecAddPKfS0_Pfi", "_Z6vecAddPKfS0_Pfi", true),
            ("vecAdd", "_Z6vecSubPKfS0_Pfi", false),
            ("vecAdd", "vecAdd", true),
            ("vecAdd", "vecAddition", false),
            ("*", "anything", true),
            ("scale", nested, true),
            ("outer::inner::scale", nested, true),
            ("inner::scale", nested, false),
            ("outer::inner::scale::x", nested, false),
            ("std::max", "_ZSt3maxIiEvT_", true),
        ];
        for (want, registered, fires) in cases {
            let plan = parse(&format!("launch:{want}:*=719"));
            // Calls that launch nothing are not counted by launch rules.
            assert_eq!(hit(&plan, "cudaLaunchKernel", None), None);
            let got = hit(&plan, "cudaLaunchKernelExC", Some(registered));
            assert_eq!(got, fires.then_some((1, 1, 719)), "{want} {registered}");
        }
        // A plain-API rule on a launch call counts every launch through it.
        let plan = parse("cudaLaunchKernel:2=719,launch:k:1-2=2");
        assert_eq!(
            hit(&plan, "cudaLaunchKernel", Some("_Z1kv")),
            Some((2, 1, 2))
        );
        assert_eq!(
            hit(&plan, "cudaLaunchKernel", Some("_Z1kv")),
            Some((1, 2, 719))
        );
    }

    #[test]
    fn base_name_reads_simple_mangled_names() {
        let cases = [
            ("_Z6vecAddPKfS0_Pfi", Some("vecAdd")),
            ("_Z5scaleIfEvPT_i", Some("scale")),
            ("_ZN1a1b1cEv", Some("c")),
            ("_ZN2ns5scaleIiEEvPT_", Some("scale")),
            ("_ZN12_GLOBAL__N_16kernelEv", Some("kernel")),
            ("_ZL6staticPi", Some("static")),
            ("_ZSt3maxIiEvT_", Some("max")),
            ("_ZNK2ns1fEv", Some("f")),
            ("_Z3fooB5cxx11v", Some("foo")),
            ("_Z3foov.constprop.0", Some("foo")),
        ];
        for (mangled, want) in cases {
            assert_eq!(base_name(mangled), want, "{mangled}");
        }
        for bad in "vecAdd _Z _ZN _ZN2ns _ZN2ns3f _Z0v _Z01av _Z9short _Z99999999999999999999a \
                    _ZZ4mainENKUlvE_clEv _Z2éx _Z3fooBv _ZN2nsB3f"
            .split(' ')
        {
            assert_eq!(base_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn errors_by_name_or_number() {
        for e in cudaError_t::ALL.iter().filter(|e| !e.is_success()) {
            for error in [e.0.to_string(), error_name(*e).to_string()] {
                let plan = parse(&format!("cudaFree:1={error}"));
                assert_eq!(plan.decide("cudaFree", None).map(|i| i.error), Some(*e));
            }
        }
    }

    #[test]
    fn every_parse_error_names_rule_and_reason() {
        assert_eq!(
            Plan::parse("cudaFree:1=1,cudaMalloc:x=2").err().as_deref(),
            Some("CUDART_FAULTS: rule 2 `cudaMalloc:x=2`: WHEN must be N, N-M, N+, * or *%K")
        );
        let cases = [
            ("cudaMalloc:1=2,", "rule 2 ``: empty rule"),
            (",cudaMalloc:1=2", "rule 1 ``: empty rule"),
            ("cudaMalloc:1", "missing `=ERROR`"),
            ("cudaMalloc=2", "missing `:WHEN`"),
            (":1=2", "TARGET is empty"),
            ("cuda Malloc:1=2", "not an API name"),
            ("9cudaMalloc:1=2", "not an API name"),
            ("cudaMemcpy_ptds:1=2", "without _ptds: `cudaMemcpy`"),
            ("cudaMemcpyAsync_ptsz:1=2", "without _ptsz"),
            ("launch:1=2", "launch:KERNEL:WHEN=ERROR"),
            ("launch::1=2", "KERNEL `` is not"),
            ("launch:a:b:1=2", "KERNEL `a:b` is not"),
            ("launch:ns:::k:1=2", "KERNEL `ns:::k` is not"),
            ("launch:k k:1=2", "KERNEL `k k` is not"),
            ("cudaMalloc:=2", WHEN_FORMS),
            ("cudaMalloc:+=2", WHEN_FORMS),
            ("cudaMalloc:+3=2", WHEN_FORMS),
            ("cudaMalloc:-3=2", WHEN_FORMS),
            ("cudaMalloc:1-2-3=2", WHEN_FORMS),
            ("cudaMalloc:*%=2", WHEN_FORMS),
            ("cudaMalloc:**=2", WHEN_FORMS),
            ("cudaMalloc:3%2=2", WHEN_FORMS),
            ("cudaMalloc:0=2", "N must be at least 1"),
            ("cudaMalloc:0+=2", "N must be at least 1"),
            ("cudaMalloc:0-3=2", "N must be at least 1"),
            ("cudaMalloc:4-3=2", "N-M needs N <= M (4-3 picks no call)"),
            ("cudaMalloc:*%0=2", "*%K needs K of at least 1"),
            (
                "cudaMalloc:99999999999999999999=2",
                "count `99999999999999999999` is",
            ),
            ("cudaMalloc:1=", "ERROR is empty"),
            ("cudaMalloc:1=0", "cudaSuccess (0) is not an error"),
            (
                "cudaMalloc:1=cudaSuccess",
                "cudaSuccess (0) is not an error",
            ),
            ("cudaMalloc:1=12345", "unknown error code 12345"),
            ("cudaMalloc:1=99999999999", "unknown error code 99999999999"),
            ("cudaMalloc:1=-1", "unknown error `-1`"),
            (
                "cudaMalloc:1=cudaErrorNope",
                "unknown error `cudaErrorNope`",
            ),
            (
                "cudaMalloc:1=unrecognized error code",
                "unknown error `unrec",
            ),
            ("cudaMalloc:1=cudaerrormemoryallocation", "unknown error"),
        ];
        for (spec, want) in cases {
            let e = Plan::parse(spec).err().unwrap_or_default();
            assert!(
                e.starts_with("CUDART_FAULTS: rule ") && e.contains(want),
                "{spec}: {e}"
            );
        }
    }

    #[test]
    fn describe_reads_as_one_line() {
        let plan = parse(
            "cudaMalloc:3=2,launch:vecAdd:*%10=719,launch:*:2-4=1,cudaFree:5+=1,cudaMemcpy:*=1,\
             cudaMemset:*%1=1,cudaMemset:*%22=1,cudaMemset:*%13=1,cudaMemset:*%101=1",
        );
        assert_eq!(
            plan.describe(),
            "cudaMalloc call 3 -> cudaErrorMemoryAllocation; \
             launch of vecAdd every 10th call -> cudaErrorLaunchFailure; \
             launch of any kernel calls 2 to 4 -> cudaErrorInvalidValue; \
             cudaFree calls 5 and later -> cudaErrorInvalidValue; \
             cudaMemcpy every call -> cudaErrorInvalidValue; \
             cudaMemset every call -> cudaErrorInvalidValue; \
             cudaMemset every 22nd call -> cudaErrorInvalidValue; \
             cudaMemset every 13th call -> cudaErrorInvalidValue; \
             cudaMemset every 101st call -> cudaErrorInvalidValue"
        );
        for spec in ["", "  ", "\t"] {
            assert_eq!(parse(spec).describe(), "no faults");
            assert_eq!(hit(&parse(spec), "cudaMalloc", Some("k")), None);
        }
    }

    #[test]
    fn threads_share_the_counts() {
        fn shared<T: Send + Sync>(_: &T) {}
        let plan = parse("cudaMalloc:*%10=2,cudaFree:500=1");
        shared(&plan);
        let calls = || -> Vec<Injection> {
            let each = |_| {
                [
                    plan.decide("cudaMalloc", None),
                    plan.decide("cudaFree", None),
                ]
            };
            (0..1000).flat_map(each).flatten().collect()
        };
        let all: Vec<Injection> = std::thread::scope(|s| {
            let threads: Vec<_> = (0..8).map(|_| s.spawn(calls)).collect();
            threads
                .into_iter()
                .flat_map(|t| t.join().unwrap_or_default())
                .collect()
        });
        assert_eq!(all.iter().filter(|i| i.rule == 1).count(), 800);
        assert_eq!(all.iter().filter(|i| i.rule == 2).count(), 1);
    }

    /// A garbage string of up to 24 pieces of `alphabet`, drawn by a
    /// xorshift generator from `x`.
    fn garbage(x: &mut u64, alphabet: &[&str]) -> String {
        let mut next = |n: usize| {
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
            (*x % n as u64) as usize
        };
        (0..next(24))
            .map(|_| alphabet[next(alphabet.len())])
            .collect()
    }

    /// Pieces of garbage: the grammar's characters, names, odd bytes.
    const PIECES: &str = "cudaMalloc|launch|_Z|N|E|I|3|0|9|a| |,|:|::|=|*|%|-|+|é|🦀|\0|\n|_ptds|2";

    #[test]
    fn garbage_is_refused_without_panicking() {
        let mut x = 0x5eed;
        let pieces: Vec<&str> = PIECES.split('|').collect();
        for drop in [":", "="] {
            let alphabet: Vec<&str> = pieces
                .iter()
                .copied()
                .filter(|p| !p.contains(drop))
                .collect();
            for _ in 0..300 {
                let spec = garbage(&mut x, &alphabet) + "x";
                assert!(Plan::parse(&spec).is_err(), "{spec:?}");
            }
        }
        // Anything else: parsed or refused, and a parsed plan decides.
        for _ in 0..1000 {
            if let Ok(plan) = Plan::parse(&garbage(&mut x, &pieces)) {
                let kernel = garbage(&mut x, &pieces);
                let _ = (plan.decide("cudaMalloc", Some(&kernel)), plan.describe());
            }
        }
        for i in 0..2000 {
            let prefix = ["_Z", "_ZN", "_ZL", "_ZSt", "_ZNK", ""][i % 6];
            let name = prefix.to_string() + &garbage(&mut x, &pieces);
            if let Some(base) = base_name(&name) {
                assert!(
                    symbol_chars(base) && name.contains(base),
                    "{name:?} -> {base:?}"
                );
            }
            let _ = kernel_matches("a::b", &name);
        }
    }
}
