//! Embeds the templates and the sample KGs so the binary works without the source tree.
use std::{env, fs, path::Path};

fn main() {
    embed("assets/templates", "toml", "builtin_templates.rs");
    embed("sample-kgs", "ttl", "sample_kgs.rs");
}

/// Writes `&[(file name, include_str!(path))]` for every `*.ext` file of `dir`.
fn embed(dir: &str, ext: &str, out_name: &str) {
    let dir = Path::new(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = fs::read_dir(dir)
        .map(|r| r.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == ext));
    files.sort();
    let mut out = String::from("&[\n");
    for f in files {
        println!("cargo:rerun-if-changed={}", f.display());
        let abs = fs::canonicalize(&f).unwrap();
        out.push_str(&format!(
            "    ({:?}, include_str!({:?})),\n",
            f.file_name().unwrap().to_string_lossy(),
            abs.display().to_string()
        ));
    }
    out.push(']');
    fs::write(Path::new(&env::var("OUT_DIR").unwrap()).join(out_name), out).unwrap();
}
