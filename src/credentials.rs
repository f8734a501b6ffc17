//! Credentials inside URLs: `http://user:secret@host/v1`, `https://host/sparql?api_key=…`.
//!
//! kgscope never shows or stores them. [`redact`] replaces the userinfo and the value of every
//! key-like query parameter with [`MASK`]; that form is what messages, logs, reports and
//! manifests carry. The mask stays in place (rather than dropping the parts) so that whoever
//! reads a manifest, and `run --resume`, can tell that the URL needs credentials.
//!
//! The full URL lives in memory only, for the process the user gave it to. A URL read back
//! from a manifest has masks where its credentials were; the command line hands the full URLs
//! it was given to [`supply`], and [`restore`] swaps a masked URL for the supplied one that
//! masks to the same text. This keeps every layer between the command line and the HTTP
//! client (run configuration, manifest, session, TUI) free to pass the masked form around.

use std::fmt;
use std::sync::Mutex;

/// What stands in for a credential.
pub const MASK: &str = "***";

/// Full URLs given on this process's command line that carry credentials.
static SUPPLIED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Whether a query parameter's name says its value is a secret (`api_key`, `key`, `token`,
/// `access_token`, `sig`, `X-Amz-Signature`, `password`, `client_secret`, ...). Erring on the
/// side of masking costs only a `--base-url` given again on resume.
pub fn is_key_like(name: &str) -> bool {
    let n: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    const PARTS: [&str; 9] = [
        "key",
        "token",
        "secret",
        "passw",
        "pwd",
        "auth",
        "sig",
        "credential",
        "session",
    ];
    n == "code" || n == "pass" || PARTS.iter().any(|p| n.contains(p))
}

/// The pieces of a URL string that matter here, as byte ranges.
struct Parts {
    /// The userinfo (before the last `@` of the authority), if any.
    userinfo: Option<std::ops::Range<usize>>,
    /// Value ranges of key-like query parameters.
    secret_values: Vec<std::ops::Range<usize>>,
}

/// Splits `url` (`scheme://[userinfo@]host[/path][?query][#fragment]`); `None` when it does
/// not look like a URL with an authority.
fn parts(url: &str) -> Option<Parts> {
    let sep = url.find("://")?;
    let scheme = &url[..sep];
    if scheme.is_empty()
        || !scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        return None;
    }
    let auth_start = sep + 3;
    let auth_end = url[auth_start..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |i| auth_start + i);
    let userinfo = url[auth_start..auth_end]
        .rfind('@')
        .map(|at| auth_start..auth_start + at);
    let mut secret_values = Vec::new();
    if let Some(q) = url[auth_end..].find('?').map(|i| auth_end + i + 1) {
        let q_end = url[q..].find('#').map_or(url.len(), |i| q + i);
        let mut start = q;
        for param in url[q..q_end].split('&') {
            if let Some(eq) = param.find('=') {
                let name = &param[..eq];
                if is_key_like(name) && eq + 1 < param.len() {
                    secret_values.push(start + eq + 1..start + param.len());
                }
            }
            start += param.len() + 1;
        }
    }
    Some(Parts {
        userinfo,
        secret_values,
    })
}

/// `url` with its userinfo and key-like query values replaced by [`MASK`]; text that is not a
/// URL comes back unchanged. Idempotent: a redacted URL redacts to itself.
pub fn redact(url: &str) -> String {
    let Some(p) = parts(url) else {
        return url.to_string();
    };
    let mut ranges: Vec<_> = p.userinfo.into_iter().chain(p.secret_values).collect();
    ranges.sort_by_key(|r| r.start);
    let mut out = String::with_capacity(url.len());
    let mut at = 0;
    for r in ranges {
        out.push_str(&url[at..r.start]);
        out.push_str(MASK);
        at = r.end;
    }
    out.push_str(&url[at..]);
    out
}

/// Redacts every URL inside free text (an error chain that quotes the URL it failed on).
pub fn redact_urls_in(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(sep) = rest.find("://") {
        // The scheme: the ASCII run right before `://`.
        let start = rest[..sep]
            .char_indices()
            .rev()
            .find(|&(_, c)| !(c.is_ascii_alphanumeric() || "+-.".contains(c)))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let end = rest[sep..]
            .find(|c: char| c.is_whitespace() || "()<>\"'`,;".contains(c))
            .map_or(rest.len(), |i| sep + i);
        out.push_str(&rest[..start]);
        out.push_str(&redact(&rest[start..end]));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Every form in which the credentials kgscope sends to one server can come back in that
/// server's text (an error page that echoes the request, an error chain quoting the URL): the
/// user name and password of the URL, `user:password`, its base64 as sent in Basic auth, the
/// values of key-like query parameters (each raw and percent-decoded), and a Bearer key.
/// [`Scrubber::scrub`] masks them all, and every URL in the text as [`redact`] does. The
/// model backend and the SPARQL endpoint both pass every text that came from a server through
/// one of these before it is shown or logged.
#[derive(Clone, Default)]
pub struct Scrubber {
    /// Longest first, so a secret inside a longer one is masked as part of it.
    secrets: Vec<String>,
}

impl fmt::Debug for Scrubber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Scrubber({} secret forms)", self.secrets.len())
    }
}

/// A secret shorter than this is masked only inside a longer form (`user:pw`, its base64):
/// masking every `pw` or `bob` in a message would garble it.
const SHORTEST_ALONE: usize = 4;

impl Scrubber {
    /// The credentials of `url` and, when given, the API key sent as a Bearer token.
    pub fn new(url: &str, key: Option<&str>) -> Self {
        use base64::Engine as _;
        let mut alone: Vec<String> = key.into_iter().map(str::to_string).collect();
        let mut whole: Vec<String> = Vec::new();
        if let Some(p) = parts(url) {
            if let Some(info) = p.userinfo {
                let info = &url[info];
                let (user, password) = info.split_once(':').unwrap_or((info, ""));
                for (u, pw) in [
                    (user.to_string(), password.to_string()),
                    (percent_decode(user), percent_decode(password)),
                ] {
                    // Basic auth sends `user:password` (the password may be empty) in base64.
                    let pair = format!("{u}:{pw}");
                    whole.push(base64::engine::general_purpose::STANDARD.encode(&pair));
                    whole.push(pair);
                    alone.extend([u, pw]);
                }
                whole.push(info.to_string());
            }
            for r in p.secret_values {
                let value = &url[r];
                alone.push(percent_decode(value));
                whole.push(value.to_string());
            }
        }
        alone.retain(|s| s.chars().count() >= SHORTEST_ALONE);
        whole.retain(|s| !s.is_empty() && s != MASK);
        let mut secrets: Vec<String> = whole.into_iter().chain(alone).collect();
        secrets.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        secrets.dedup();
        Scrubber { secrets }
    }

    /// `text` with every URL redacted, every form of the secrets masked, and whatever follows
    /// `Basic ` or `Bearer ` (an echoed `Authorization` header, whoever's it is) masked.
    pub fn scrub(&self, text: &str) -> String {
        let mut out = redact_urls_in(text);
        for secret in &self.secrets {
            out = out.replace(secret.as_str(), MASK);
        }
        mask_auth_schemes(&out)
    }
}

/// Masks the token after every `Basic ` / `Bearer ` (any case): the credentials of an
/// `Authorization` header a server echoed, even ones in a form [`Scrubber`] did not foresee.
fn mask_auth_schemes(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut search = 0;
    while let Some((start, scheme)) = ["basic ", "bearer "]
        .iter()
        .filter_map(|s| lower[search..].find(s).map(|i| (search + i, s.len())))
        .min()
    {
        let token_start = start + scheme;
        let token_len = text[token_start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || "+/=-._~".contains(c)))
            .unwrap_or(text.len() - token_start);
        search = token_start + token_len;
        // A word after "basic " in prose is rarely 8 characters of base64; a token is.
        if token_len >= 8 {
            out.push_str(&text[at..token_start]);
            out.push_str(MASK);
            at = token_start + token_len;
        }
    }
    out.push_str(&text[at..]);
    out
}

/// `%XX` escapes decoded; invalid UTF-8 replaced.
fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

/// Which credentials a URL carries (or carried, when masked), for messages:
/// `["user:password", "api_key"]`.
pub fn kinds(url: &str) -> Vec<String> {
    let Some(p) = parts(url) else {
        return vec![];
    };
    let mut v = Vec::new();
    if p.userinfo.is_some() {
        v.push("user:password".to_string());
    }
    for r in p.secret_values {
        // The name sits between the previous `?`/`&` and the `=` before the value.
        let before = &url[..r.start - 1];
        let name_start = before.rfind(['?', '&']).map_or(0, |i| i + 1);
        v.push(before[name_start..].to_string());
    }
    v
}

/// Whether a URL carries credentials that [`redact`] would mask.
pub fn has_credentials(url: &str) -> bool {
    redact(url) != url
}

/// Whether a URL had its credentials masked (it came from a manifest, not from the user).
pub fn is_masked(url: &str) -> bool {
    parts(url).is_some_and(|p| {
        p.userinfo
            .into_iter()
            .chain(p.secret_values)
            .any(|r| &url[r] == MASK)
    })
}

/// Remembers a URL given by the user (a `--base-url` or `--kg`), so that a masked copy of it
/// read back from a manifest can be [`restore`]d. URLs without credentials are not kept.
pub fn supply(url: &str) {
    if !has_credentials(url) || is_masked(url) {
        return;
    }
    let mut s = SUPPLIED.lock().unwrap_or_else(|e| e.into_inner());
    if !s.iter().any(|u| u == url) {
        s.push(url.to_string());
    }
}

/// A masked URL whose credentials were not supplied again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingCredentials {
    /// The masked URL.
    pub url: String,
    /// What was masked (`user:password`, `api_key`, ...).
    pub kinds: Vec<String>,
}

impl fmt::Display for MissingCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} carried credentials ({}) that kgscope does not store; give the full URL again",
            self.url,
            self.kinds.join(", ")
        )
    }
}

impl std::error::Error for MissingCredentials {}

/// The URL to connect to for `url`: itself when it is not masked, else the supplied URL that
/// masks to it.
pub fn restore(url: &str) -> Result<String, MissingCredentials> {
    if !is_masked(url) {
        return Ok(url.to_string());
    }
    let s = SUPPLIED.lock().unwrap_or_else(|e| e.into_inner());
    s.iter()
        .find(|full| redact(full) == url)
        .cloned()
        .ok_or_else(|| MissingCredentials {
            url: url.to_string(),
            kinds: kinds(url),
        })
}

/// `serialize_with` for a URL field: what is written is the redacted URL.
pub fn serialize_redacted<S: serde::Serializer>(url: &str, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&redact(url))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn userinfo_and_key_like_parameters_are_masked() {
        assert_eq!(
            redact("http://user:secret@host:8080/v1"),
            "http://***@host:8080/v1"
        );
        assert_eq!(redact("https://tok@h/v1"), "https://***@h/v1");
        assert_eq!(
            redact("https://h/v1?api_key=abc&model=x&key=k2&access_token=t&sig=s#frag"),
            "https://h/v1?api_key=***&model=x&key=***&access_token=***&sig=***#frag"
        );
        assert_eq!(
            redact("https://h/s?X-Amz-Signature=aa&token=&api-version=2024"),
            "https://h/s?X-Amz-Signature=***&token=&api-version=2024"
        );
        // An `@` in the path is not userinfo.
        assert_eq!(redact("http://h/a@b"), "http://h/a@b");
        for plain in [
            "sample:countries",
            "runs/x.ttl",
            "http://127.0.0.1:8080/v1",
            "",
        ] {
            assert_eq!(redact(plain), plain);
            assert!(!has_credentials(plain));
        }
        let r = redact("http://u:p@h/v1?token=t");
        assert_eq!(redact(&r), r, "idempotent");
        assert!(is_masked(&r));
        assert_eq!(kinds(&r), vec!["user:password", "token"]);
    }

    #[test]
    fn urls_inside_text_are_redacted() {
        assert_eq!(
            redact_urls_in(
                "error sending request for url (http://h:1/v1/chat?api_key=SECRET): refused"
            ),
            "error sending request for url (http://h:1/v1/chat?api_key=***): refused"
        );
        assert_eq!(
            redact_urls_in("a «https://u:pw@x/y» b ftp://c ://d"),
            "a «https://***@x/y» b ftp://c ://d"
        );
    }

    #[test]
    fn every_form_of_a_urls_secrets_is_scrubbed() {
        let s = Scrubber::new(
            "http://alice:S3CRET%25PW@h.test/q?api_key=K3Y%2Fv&model=m",
            Some("sk-bearer-123"),
        );
        use base64::Engine as _;
        let basic = base64::engine::general_purpose::STANDARD.encode("alice:S3CRET%PW");
        let text = format!(
            "POST /q?api_key=K3Y%2Fv HTTP/1.1 (decoded K3Y/v) alice:S3CRET%PW S3CRET%25PW \
             Authorization: Basic {basic} Authorization: bEaReR sk-bearer-123 \
             Authorization: Basic c29tZW9uZTplbHNl url http://bob:pw@x.test/?token=t9 model=m"
        );
        let out = s.scrub(&text);
        for secret in [
            "K3Y%2Fv",
            "K3Y/v",
            "S3CRET%PW",
            "S3CRET%25PW",
            &basic,
            "sk-bearer-123",
            "c29tZW9uZTplbHNl",
            "bob:pw",
            "t9",
        ] {
            assert!(!out.contains(secret), "{secret} in {out}");
        }
        assert!(out.contains("model=m"), "{out}");
        assert!(out.contains("Authorization: Basic ***"), "{out}");
        // A URL without credentials scrubs nothing but URLs; a short password goes with its user.
        assert_eq!(Scrubber::default().scrub("basic text"), "basic text");
        let short = Scrubber::new("http://bob:pw@h/", None);
        assert_eq!(short.scrub("bob:pw in pwd"), "*** in pwd");
    }

    #[test]
    fn a_masked_url_is_restored_only_from_a_supplied_one() {
        let full = "http://alice:s3cret-restore@restore.test/v1?api_key=k-restore";
        let masked = redact(full);
        assert_eq!(
            restore(&masked).unwrap_err().kinds,
            vec!["user:password", "api_key"]
        );
        supply("http://alice:other@elsewhere.test/v1");
        assert!(restore(&masked).is_err());
        supply(full);
        assert_eq!(restore(&masked).unwrap(), full);
        assert_eq!(
            restore("http://plain.test/v1").unwrap(),
            "http://plain.test/v1"
        );
    }
}
