//! A GGUF file's metadata (its key-value header), read without loading the model: what a run
//! records about how its prompts are laid out before the model is started.
//!
//! The layout (GGUF v2 and v3, little-endian): magic `GGUF`, version u32, tensor count u64,
//! key-value count u64, then each pair as a string key, a u32 value type and the value.
//! Strings are a u64 length and UTF-8 bytes; arrays are an element type u32, a u64 count and
//! the elements.

use std::collections::HashMap;
use std::io::{BufReader, Read};
use std::path::Path;

/// The string values of a GGUF header; other types are read past.
pub type Strings = HashMap<String, String>;

const STRING: u32 = 8;
const ARRAY: u32 = 9;

/// Bytes of a fixed-size value type, `None` for strings, arrays and unknown types.
fn fixed_size(t: u32) -> Option<u64> {
    Some(match t {
        0 | 1 | 7 => 1,   // u8, i8, bool
        2 | 3 => 2,       // u16, i16
        4..=6 => 4,       // u32, i32, f32
        10..=12 => 8,     // u64, i64, f64
        _ => return None, // string (8), array (9), or not GGUF
    })
}

/// No key or string in a real model is near this long: a larger length means a damaged file,
/// refused before it is allocated.
const MAX_STRING: u64 = 64 << 20;

struct Reader<R> {
    r: R,
}

impl<R: Read> Reader<R> {
    fn u32(&mut self) -> std::io::Result<u32> {
        let mut b = [0u8; 4];
        self.r.read_exact(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn u64(&mut self) -> std::io::Result<u64> {
        let mut b = [0u8; 8];
        self.r.read_exact(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn skip(&mut self, n: u64) -> std::io::Result<()> {
        let copied = std::io::copy(&mut (&mut self.r).take(n), &mut std::io::sink())?;
        if copied < n {
            return Err(bad("the file ends inside its metadata"));
        }
        Ok(())
    }
    fn string(&mut self) -> std::io::Result<String> {
        let n = self.u64()?;
        if n > MAX_STRING {
            return Err(bad("a metadata string is implausibly long"));
        }
        let mut b = vec![0u8; n as usize];
        self.r.read_exact(&mut b)?;
        String::from_utf8(b).map_err(|_| bad("a metadata string is not UTF-8"))
    }
    fn skip_value(&mut self, t: u32) -> std::io::Result<()> {
        match t {
            STRING => {
                let n = self.u64()?;
                self.skip(n)
            }
            ARRAY => {
                let elem = self.u32()?;
                let count = self.u64()?;
                match fixed_size(elem) {
                    Some(size) => self.skip(size.saturating_mul(count)),
                    None => (0..count).try_for_each(|_| self.skip_value(elem)),
                }
            }
            t => match fixed_size(t) {
                Some(size) => self.skip(size),
                None => Err(bad(&format!("unknown metadata value type {t}"))),
            },
        }
    }
}

fn bad(what: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string())
}

/// The string-valued metadata of the GGUF file at `path`.
pub fn strings(path: &Path) -> std::io::Result<Strings> {
    read_strings(BufReader::with_capacity(
        1 << 20,
        std::fs::File::open(path)?,
    ))
}

fn read_strings(r: impl Read) -> std::io::Result<Strings> {
    let mut r = Reader { r };
    let mut magic = [0u8; 4];
    r.r.read_exact(&mut magic)?;
    if &magic != b"GGUF" {
        return Err(bad("not a GGUF file"));
    }
    let version = r.u32()?;
    if version < 2 {
        return Err(bad(&format!("GGUF version {version} is too old to read")));
    }
    let _tensors = r.u64()?;
    let pairs = r.u64()?;
    let mut out = Strings::new();
    for _ in 0..pairs {
        let key = r.string()?;
        let t = r.u32()?;
        if t == STRING {
            out.insert(key, r.string()?);
        } else {
            r.skip_value(t)?;
        }
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A GGUF header with these pairs: strings, a u32 and an array of strings to read past.
    pub(crate) fn header(strings: &[(&str, &str)]) -> Vec<u8> {
        let mut b = b"GGUF".to_vec();
        b.extend(3u32.to_le_bytes());
        b.extend(0u64.to_le_bytes());
        b.extend((strings.len() as u64 + 2).to_le_bytes());
        let s = |b: &mut Vec<u8>, v: &str| {
            b.extend((v.len() as u64).to_le_bytes());
            b.extend(v.as_bytes());
        };
        s(&mut b, "general.alignment");
        b.extend(4u32.to_le_bytes());
        b.extend(32u32.to_le_bytes());
        s(&mut b, "tokenizer.ggml.tokens");
        b.extend(ARRAY.to_le_bytes());
        b.extend(STRING.to_le_bytes());
        b.extend(2u64.to_le_bytes());
        s(&mut b, "<s>");
        s(&mut b, "hello");
        for (k, v) in strings {
            s(&mut b, k);
            b.extend(STRING.to_le_bytes());
            s(&mut b, v);
        }
        b
    }

    #[test]
    fn strings_are_read_and_other_values_read_past() {
        let b = header(&[("general.name", "Tiny Instruct"), ("x", "y")]);
        let got = read_strings(&b[..]).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got["general.name"], "Tiny Instruct");
        assert!(read_strings(&b"GGUX...."[..]).is_err());
        // Cut inside the metadata: an error, not a short read taken for the whole.
        assert!(read_strings(&b[..b.len() - 3]).is_err());
    }
}
