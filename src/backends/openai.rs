//! Any OpenAI-compatible server over HTTP with SSE streaming.
