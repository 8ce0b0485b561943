//! The shape of `src/http`, as ARCHITECTURE.md states it: no file longer than about 600 lines,
//! no import of `crate::db` (pages and handlers reach the database only through services),
//! and no import cycle between its modules.
//!
//! A module's references to its own ancestors (`super::AppState`, `crate::http::session` from
//! below `http`) do not count: a parent declares its children, so every such reference would
//! be a "cycle" of Rust's module tree rather than of the design. Every other reference to a
//! module under `src/http` (`super::form::…`, `crate::http::pages::shared::…`,
//! `crate::http::error::…`) is an edge, and the edges must form no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const LONGEST_FILE: usize = 600;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src/http") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/http/pages/admin/form.rs` → `["http", "pages", "admin", "form"]`; `mod.rs` names its
/// folder.
fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).expect("under src");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    parts
}

/// The code without comments and string literals (a path in a doc comment is no import).
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        break;
                    }
                }
                out.push_str("\"\"");
            }
            _ => out.push(c),
        }
    }
    out
}

/// Every path that starts with `crate::http`, `super` or `self`, as its segments (a brace
/// group contributes each of its members).
fn paths(code: &str) -> Vec<Vec<String>> {
    let bytes: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < bytes.len() {
        if !is_ident(bytes[i]) || (i > 0 && (is_ident(bytes[i - 1]) || bytes[i - 1] == ':')) {
            i += 1;
            continue;
        }
        let mut segments = Vec::new();
        let mut j = i;
        loop {
            let start = j;
            while j < bytes.len() && is_ident(bytes[j]) {
                j += 1;
            }
            segments.push(bytes[start..j].iter().collect::<String>());
            if j + 2 < bytes.len() && bytes[j] == ':' && bytes[j + 1] == ':' {
                j += 2;
                if bytes[j] == '{' {
                    let mut depth = 0;
                    let mut end = j;
                    while end < bytes.len() {
                        match bytes[end] {
                            '{' => depth += 1,
                            '}' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        end += 1;
                    }
                    let inner: String = bytes[j + 1..end.min(bytes.len())].iter().collect();
                    for member in paths(&inner) {
                        let mut full = segments.clone();
                        full.extend(member);
                        found.push(full);
                    }
                    // Members that are plain names (`{form, section}`).
                    for name in inner.split(',') {
                        let name = name.trim();
                        if !name.is_empty() && name.chars().all(is_ident) {
                            let mut full = segments.clone();
                            full.push(name.to_string());
                            found.push(full);
                        }
                    }
                    j = end;
                    break;
                }
                if j < bytes.len() && is_ident(bytes[j]) {
                    continue;
                }
            }
            break;
        }
        let first = segments[0].as_str();
        let relevant = first == "super"
            || first == "self"
            || (first == "crate" && segments.get(1).is_some_and(|s| s == "http"));
        if relevant && segments.len() > 1 {
            found.push(segments);
        }
        i = j.max(i + 1);
    }
    found
}

/// The module a path refers to: the longest prefix that is a module under `src/http`.
fn target(
    from: &[String],
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    let mut base: Vec<String> = match path[0].as_str() {
        "crate" => Vec::new(),
        "self" => from.to_vec(),
        _ => from.to_vec(),
    };
    let mut rest = &path[1..];
    if path[0] == "super" {
        base.pop();
        while rest.first().is_some_and(|s| s == "super") {
            base.pop();
            rest = &rest[1..];
        }
    }
    let mut best = None;
    let mut current = base.clone();
    if modules.contains(&current) {
        best = Some(current.clone());
    }
    for segment in rest {
        current.push(segment.clone());
        if modules.contains(&current) {
            best = Some(current.clone());
        }
    }
    best
}

type Edges = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

/// The cycles a depth-first search closes (each as `a → b → a`).
fn find_cycles(modules: &BTreeSet<Vec<String>>, edges: &Edges) -> Vec<String> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit<'a>(
        node: &'a Vec<String>,
        edges: &'a Edges,
        marks: &mut BTreeMap<&'a Vec<String>, Mark>,
        stack: &mut Vec<&'a Vec<String>>,
        cycles: &mut Vec<String>,
    ) {
        marks.insert(node, Mark::Open);
        stack.push(node);
        for next in edges.get(node).into_iter().flatten() {
            match marks.get(next).copied().unwrap_or(Mark::Done) {
                Mark::New => visit(next, edges, marks, stack, cycles),
                Mark::Open => {
                    let from = stack.iter().position(|m| *m == next).unwrap_or(0);
                    let names: Vec<String> = stack[from..]
                        .iter()
                        .copied()
                        .chain(std::iter::once(next))
                        .map(|m| m.join("::"))
                        .collect();
                    cycles.push(names.join(" → "));
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(node, Mark::Done);
    }
    let mut marks: BTreeMap<&Vec<String>, Mark> = modules.iter().map(|m| (m, Mark::New)).collect();
    let mut cycles = Vec::new();
    for module in modules {
        if marks[module] == Mark::New {
            visit(module, edges, &mut marks, &mut Vec::new(), &mut cycles);
        }
    }
    cycles
}

#[test]
fn http_is_short_files_without_db_and_without_cycles() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("http"), &mut files);
    assert!(files.len() > 20, "src/http has its files");

    let mut problems = Vec::new();
    let mut texts = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read");
        let lines = text.lines().count();
        if lines > LONGEST_FILE {
            problems.push(format!("{} has {lines} lines", file.display()));
        }
        let code = code_only(&text);
        if code.contains("crate::db") {
            problems.push(format!("{} imports crate::db", file.display()));
        }
        texts.insert(module_of(&src, file), code);
    }

    let modules: BTreeSet<Vec<String>> = texts.keys().cloned().collect();
    let mut edges = Edges::new();
    for (module, code) in &texts {
        for path in paths(code) {
            let Some(to) = target(module, &path, &modules) else {
                continue;
            };
            // Self-references and references to an ancestor are the module tree itself.
            if &to == module || module.starts_with(&to) {
                continue;
            }
            edges.entry(module.clone()).or_default().insert(to);
        }
    }

    let cycles = find_cycles(&modules, &edges);
    for cycle in cycles {
        problems.push(format!("import cycle: {cycle}"));
    }

    // The check must see the edges it claims to check.
    let form = vec!["http", "pages", "admin", "form"]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    let section = vec!["http", "pages", "admin", "section"]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    assert!(
        edges.get(&section).is_some_and(|e| e.contains(&form)),
        "the section page's use of the form helpers is an edge: {:?}",
        edges.get(&section)
    );

    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_cycle_is_found() {
    let modules: BTreeSet<Vec<String>> = [vec!["http", "a"], vec!["http", "b"]]
        .into_iter()
        .map(|m| m.into_iter().map(String::from).collect())
        .collect();
    let from: Vec<String> = vec!["http".into(), "a".into()];
    let found = paths("use super::b::{Thing, other::X};\nlet y = crate::http::b::f();");
    let targets: Vec<_> = found
        .iter()
        .filter_map(|p| target(&from, p, &modules))
        .collect();
    assert!(targets
        .iter()
        .all(|t| t == &vec!["http".to_string(), "b".to_string()]));
    assert!(!targets.is_empty());
    assert!(paths(&code_only("// use super::b::X;\nlet s = \"super::b\";")).is_empty());

    let a = vec!["http".to_string(), "a".to_string()];
    let b = vec!["http".to_string(), "b".to_string()];
    let mut edges = Edges::new();
    edges.entry(a.clone()).or_default().insert(b.clone());
    assert!(find_cycles(&modules, &edges).is_empty());
    edges.entry(b).or_default().insert(a);
    assert_eq!(
        find_cycles(&modules, &edges),
        ["http::a → http::b → http::a"]
    );
}
