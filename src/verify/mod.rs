//! Verdict parsing, abstention detection and voting.
