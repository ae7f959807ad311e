//! `fatbin`: list, extract and inspect the device code in CUDA binaries.
//!
//! ```text
//! fatbin list [--all] FILE        like `cuobjdump --list-elf --list-ptx FILE`
//! fatbin extract [--all] FILE [-o DIR]
//!                                 like `cuobjdump -xelf all` + `-xptx all`
//! fatbin kernels FILE             kernels, parameters and resources
//! fatbin wrappers FILE            the .nvFatBinSegment wrappers, resolved
//! ```
//!
//! Exit codes: 0 success; 1 the file is malformed or unsupported (message
//! on stderr); 2 usage error; 3 I/O error (cannot read the input or write
//! an output); 4 the file is valid but holds no device code.
#![forbid(unsafe_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use fatbin::cubin::Cubin;
use fatbin::host::{FileKind, HostFile};
use fatbin::names::{self, ListLine};
use fatbin::{EntryKind, Error};

const USAGE: &str = "usage:
  fatbin list [--all] FILE              list ELF and PTX files (as cuobjdump --list-elf --list-ptx)
  fatbin extract [--all] FILE [-o DIR]  write every payload, decompressed (as cuobjdump -xelf all -xptx all)
  fatbin kernels FILE                   kernels with parameters and resource usage
  fatbin wrappers FILE                  the registration wrappers (.nvFatBinSegment), relocations applied
options:
  --all, -all   include relocatable fatbins (__nv_relfatbin) next to executable ones
exit codes: 0 ok, 1 malformed or unsupported file, 2 usage, 3 I/O error, 4 no device code";

enum Fail {
    Usage(String),
    Io(String),
    Format(String),
    Empty(String),
}

impl Fail {
    fn code(&self) -> u8 {
        match self {
            Fail::Format(_) => 1,
            Fail::Usage(_) => 2,
            Fail::Io(_) => 3,
            Fail::Empty(_) => 4,
        }
    }
}

fn format_err(path: &str) -> impl Fn(Error) -> Fail + '_ {
    move |e| Fail::Format(format!("{path}: {e}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            match &f {
                Fail::Usage(m) => eprintln!("fatbin: {m}\n{USAGE}"),
                Fail::Io(m) | Fail::Format(m) | Fail::Empty(m) => eprintln!("fatbin: {m}"),
            }
            ExitCode::from(f.code())
        }
    }
}

struct Opts {
    all: bool,
    out: Option<PathBuf>,
    file: String,
}

fn parse_opts(args: &[String], allow_out: bool) -> Result<Opts, Fail> {
    let mut o = Opts {
        all: false,
        out: None,
        file: String::new(),
    };
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--all" | "-all" | "--all-fatbin" => o.all = true,
            "-o" | "--output" if allow_out => {
                let d = it
                    .next()
                    .ok_or_else(|| Fail::Usage("-o needs a directory".into()))?;
                o.out = Some(PathBuf::from(d));
            }
            s if s.starts_with('-') && s != "-" => {
                return Err(Fail::Usage(format!("unknown option {s}")))
            }
            s => {
                if file.replace(s.to_string()).is_some() {
                    return Err(Fail::Usage("more than one FILE".into()));
                }
            }
        }
    }
    o.file = file.ok_or_else(|| Fail::Usage("missing FILE".into()))?;
    Ok(o)
}

fn read(path: &str) -> Result<Vec<u8>, Fail> {
    std::fs::read(path).map_err(|e| Fail::Io(format!("cannot read {path}: {e}")))
}

fn display_path(path: &str) -> String {
    if Path::new(path).is_absolute() {
        return path.to_string();
    }
    match std::env::current_dir() {
        Ok(d) => format!("{}/{}", d.display(), path),
        Err(_) => path.to_string(),
    }
}

fn run(args: &[String]) -> Result<(), Fail> {
    let Some(cmd) = args.first() else {
        return Err(Fail::Usage("missing command".into()));
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "list" => list(&parse_opts(rest, false)?),
        "extract" => extract(&parse_opts(rest, true)?),
        "kernels" => kernels(&parse_opts(rest, false)?),
        "wrappers" => wrappers(&parse_opts(rest, false)?),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(())
        }
        c => Err(Fail::Usage(format!("unknown command {c}"))),
    }
}

fn listing<'a>(o: &Opts, data: &'a [u8]) -> Result<Vec<ListLine<'a>>, Fail> {
    let lines =
        names::list(&o.file, &display_path(&o.file), data, o.all).map_err(format_err(&o.file))?;
    if names::is_empty(&lines) {
        return Err(Fail::Empty(format!("{}: no device code found", o.file)));
    }
    Ok(lines)
}

fn list(o: &Opts) -> Result<(), Fail> {
    let data = read(&o.file)?;
    let lines = listing(o, &data)?;
    let mut out = String::new();
    for l in &lines {
        out.push_str(&l.text());
        out.push('\n');
    }
    std::io::stdout()
        .write_all(out.as_bytes())
        .map_err(|e| Fail::Io(format!("stdout: {e}")))
}

fn extract(o: &Opts) -> Result<(), Fail> {
    let data = read(&o.file)?;
    let lines = listing(o, &data)?;
    let dir = o.out.clone().unwrap_or_else(|| PathBuf::from("."));
    std::fs::create_dir_all(&dir)
        .map_err(|e| Fail::Io(format!("cannot create {}: {e}", dir.display())))?;
    for l in &lines {
        let ListLine::Item(item) = l else { continue };
        let bytes = item
            .contents()
            .map_err(|e| Fail::Format(format!("{}: {}: {e}", o.file, item.name)))?;
        let path = dir.join(&item.name);
        std::fs::write(&path, &bytes)
            .map_err(|e| Fail::Io(format!("cannot write {}: {e}", path.display())))?;
        let k = if item.kind == EntryKind::Ptx {
            "PTX"
        } else {
            "ELF"
        };
        println!("Extracting {k} file {:>4}: {}", item.index, item.name);
    }
    Ok(())
}

fn kernels(o: &Opts) -> Result<(), Fail> {
    let data = read(&o.file)?;
    let file = HostFile::parse(&data).map_err(format_err(&o.file))?;
    let mut out = String::new();
    let mut found = false;
    if file.kind() == FileKind::Cubin {
        let base = Path::new(&o.file)
            .file_name()
            .map_or(o.file.clone(), |b| b.to_string_lossy().into_owned());
        describe_cubin(&mut out, &base, &data).map_err(format_err(&o.file))?;
        found = true;
    } else {
        let lines = listing(o, &data)?;
        for l in &lines {
            let ListLine::Item(item) = l else {
                out.push_str(&l.text());
                out.push('\n');
                continue;
            };
            if item.kind != EntryKind::Cubin {
                continue;
            }
            let bytes = item
                .contents()
                .map_err(|e| Fail::Format(format!("{}: {}: {e}", o.file, item.name)))?;
            describe_cubin(&mut out, &item.name, &bytes)
                .map_err(|e| Fail::Format(format!("{}: {}: {e}", o.file, item.name)))?;
            found = true;
        }
    }
    if !found {
        return Err(Fail::Empty(format!("{}: no cubin found", o.file)));
    }
    std::io::stdout()
        .write_all(out.as_bytes())
        .map_err(|e| Fail::Io(format!("stdout: {e}")))
}

fn wrappers(o: &Opts) -> Result<(), Fail> {
    use std::fmt::Write as _;
    let data = read(&o.file)?;
    let file = HostFile::parse(&data).map_err(format_err(&o.file))?;
    let ws = file.wrappers().map_err(format_err(&o.file))?;
    if ws.is_empty() {
        return Err(Fail::Empty(format!("{}: no fatbin wrappers", o.file)));
    }
    let mut out = String::new();
    for w in &ws {
        let entries = match &w.fatbin {
            Some(fb) => {
                let n: Result<Vec<_>, _> = fb.entries().collect();
                match n {
                    Ok(v) => format!("{} entries, {} bytes", v.len(), fb.as_bytes().len()),
                    Err(e) => format!("malformed: {e}"),
                }
            }
            None => "container not in the file".to_string(),
        };
        let _ = write!(
            out,
            "wrapper at {:#x}: version {} data {:#x}",
            w.offset, w.header.version, w.header.data
        );
        if let Some(a) = w.header.prelinked_array() {
            let _ = write!(out, " prelinked-array {a:#x}");
        }
        let _ = writeln!(out, " ({entries})");
    }
    std::io::stdout()
        .write_all(out.as_bytes())
        .map_err(|e| Fail::Io(format!("stdout: {e}")))
}

fn describe_cubin(out: &mut String, name: &str, data: &[u8]) -> Result<(), Error> {
    use std::fmt::Write as _;
    let c = Cubin::parse(data)?;
    let arch = format!(
        "sm_{}{}",
        c.sm(),
        if c.is_arch_specific() { "a" } else { "" }
    );
    let _ = writeln!(out, "{name} ({arch})");
    let common: Vec<String> = c
        .common_resources()
        .into_iter()
        .map(|(k, v)| format!("{k}:{v}"))
        .collect();
    let _ = writeln!(out, "  common: {}", common.join(" "));
    for v in c.variables()? {
        let _ = writeln!(
            out,
            "  variable {} size={} section={} offset={:#x}",
            v.name, v.size, v.section, v.offset
        );
    }
    for k in c.functions()? {
        let what = if k.is_entry {
            "kernel"
        } else {
            "device function"
        };
        let _ = writeln!(out, "  {what} {}", k.name);
        let _ = writeln!(
            out,
            "    REG:{} STACK:{} SHARED:{} LOCAL:{} CONSTANT[0]:{} FRAME:{}",
            k.registers.map_or("?".to_string(), |r| r.to_string()),
            k.stack,
            k.shared,
            k.local,
            k.constant0,
            k.frame
        );
        let mut extra = Vec::new();
        if let Some(s) = k.param_size {
            extra.push(format!("param_bytes={s}"));
        }
        if let Some(m) = k.max_registers {
            extra.push(format!("maxreg={m}"));
        }
        if let Some([x, y, z]) = k.max_threads {
            extra.push(format!("max_threads={x}x{y}x{z}"));
        }
        if let Some([x, y, z]) = k.reqntid {
            extra.push(format!("reqntid={x}x{y}x{z}"));
        }
        if let Some([x, y, z]) = k.cluster_dims {
            extra.push(format!("cluster={x}x{y}x{z}"));
        }
        if let Some(b) = k.barriers {
            extra.push(format!("barriers={b}"));
        }
        if !extra.is_empty() {
            let _ = writeln!(out, "    {}", extra.join(" "));
        }
        for p in &k.params {
            let _ = writeln!(
                out,
                "    param {} offset={} size={}",
                p.ordinal, p.offset, p.size
            );
        }
    }
    Ok(())
}
