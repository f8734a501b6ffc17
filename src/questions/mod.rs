//! Question generation.
