//! Knowledge graph access.
