//! `CUDART_LEAKS=1`: what is still alive at exit. Each allocation (size,
//! kind, the call and thread that made it) and each stream, event, graph,
//! graph exec, library, memory pool, array and texture object the program
//! made through the runtime and never freed or destroyed is named once.
//! `CUDART_LEAKS=stack` adds the host backtrace of the call that made it.
//!
//! Written to stderr, or to `CUDART_LEAKS_FILE`.

use super::ledger::{self, Origin};
use std::fmt::Write as _;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Each object with its call and thread.
    Plain,
    /// And the host backtrace of the call.
    Stack,
}

impl Mode {
    pub(crate) fn parse(v: &str) -> Option<Mode> {
        match v {
            "0" => None,
            "stack" => Some(Mode::Stack),
            _ => Some(Mode::Plain),
        }
    }
}

fn origin(o: &Origin, mode: Mode, out: &mut String) {
    let _ = writeln!(out, ", made by {o}");
    if mode == Mode::Stack {
        if let Some(stack) = &o.stack {
            for line in stack.to_string().lines() {
                let _ = writeln!(out, "      {line}");
            }
        }
    }
}

/// The report: one line per object still alive (at exit).
pub(crate) fn render(mode: Mode) -> String {
    let (blocks, objects) = ledger::alive();
    let n = blocks.len() + objects.len();
    let mut out = String::new();
    if n == 0 {
        out.push_str("cudart leaks: none\n");
        return out;
    }
    let _ = writeln!(out, "cudart leaks: {n} objects still alive at exit");
    for (addr, b) in &blocks {
        let _ = write!(out, "  {} {} bytes at {addr:#x}", b.kind.label(), b.size);
        origin(&b.made, mode, &mut out);
    }
    for (h, o) in &objects {
        let _ = write!(out, "  {} {h:#x}", o.kind.label());
        origin(&o.made, mode, &mut out);
    }
    out
}

/// Writes the report (at exit).
pub(crate) fn report(mode: Mode) {
    let text = render(mode);
    match std::env::var_os("CUDART_LEAKS_FILE").filter(|p| !p.is_empty()) {
        Some(path) => {
            if let Err(e) = std::fs::write(&path, &text) {
                super::say(format_args!(
                    "cudart leaks: cannot write {}: {e}\n",
                    path.to_string_lossy()
                ));
            }
        }
        None => super::say(format_args!("{text}")),
    }
}
