//! What a failed request says: the server's message out of its error body, whether the model
//! is at fault, and what the transport error was (a failed name lookup, a refused connection).

use std::error::Error as StdError;

use reqwest::{StatusCode, Url};
use serde_json::Value;

/// How much of an error body goes into an error message.
const BODY_EXCERPT_CHARS: usize = 400;

/// The human-readable message of an error body: `{"error": {"message": ...}}`,
/// `{"error": "..."}`, `{"message": ...}`, `{"detail": ...}`, or the text itself.
pub(super) fn server_message(body: &str) -> String {
    let body = body.trim();
    if body.is_empty() {
        return "(empty body)".into();
    }
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        if let Some(m) = v
            .get("error")
            .and_then(error_message_from)
            .or_else(|| error_message_from(&v))
        {
            return m;
        }
    }
    body.to_string()
}

pub(super) fn error_message_from(v: &Value) -> Option<String> {
    if let Some(s) = v.as_str() {
        return Some(s.to_string());
    }
    for k in ["message", "detail", "error"] {
        match v.get(k) {
            Some(Value::String(s)) => return Some(s.clone()),
            Some(inner @ Value::Object(_)) => {
                if let Some(m) = error_message_from(inner) {
                    return Some(m);
                }
            }
            _ => {}
        }
    }
    None
}

pub(super) fn is_model_error(status: StatusCode, body: &str) -> bool {
    let lower = body.to_lowercase();
    if lower.contains("model_not_found") {
        return true;
    }
    if !lower.contains("model") {
        return false;
    }
    if status == StatusCode::NOT_FOUND {
        return true;
    }
    [
        "not found",
        "does not exist",
        "not exist",
        "no such",
        "unknown model",
        "invalid model",
        "not available",
        "not supported",
        "not loaded",
    ]
    .iter()
    .any(|p| lower.contains(p))
}

pub(super) fn excerpt(s: &str) -> String {
    let s = s.trim();
    match s.char_indices().nth(BODY_EXCERPT_CHARS) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// An error with its chain of causes, `outer: inner: innermost`.
pub(super) fn chain(e: &dyn StdError) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        let t = c.to_string();
        if !s.contains(&t) {
            s.push_str(": ");
            s.push_str(&t);
        }
        cur = c.source();
    }
    s
}

/// The error chain holds a failed name lookup (hyper-util's connector says "dns error").
pub(super) fn is_dns_failure(e: &reqwest::Error) -> bool {
    let mut cur: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(c) = cur {
        if c.to_string().contains("dns error") {
            return true;
        }
        cur = c.source();
    }
    false
}

/// The error chain holds an `ECONNREFUSED`.
pub(super) fn is_refused(e: &reqwest::Error) -> bool {
    let mut cur: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(c) = cur {
        if c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::ConnectionRefused)
        {
            return true;
        }
        cur = c.source();
    }
    false
}

pub(super) fn is_loopback(url: &Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_from_error_bodies() {
        assert_eq!(
            server_message(
                r#"{"error":{"message":"The model `x` does not exist","code":"model_not_found"}}"#
            ),
            "The model `x` does not exist"
        );
        assert_eq!(
            server_message(r#"{"error":"model 'x' not found"}"#),
            "model 'x' not found"
        );
        assert_eq!(server_message(r#"{"detail":"nope"}"#), "nope");
        assert_eq!(server_message("plain"), "plain");
        assert!(is_model_error(
            StatusCode::NOT_FOUND,
            r#"{"error":"model 'x' not found"}"#
        ));
        assert!(!is_model_error(
            StatusCode::BAD_REQUEST,
            "This model's maximum context length is 4096 tokens"
        ));
        assert!(!is_model_error(StatusCode::NOT_FOUND, "File Not Found"));
    }
}
