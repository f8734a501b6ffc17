//! Local GGUF models through llama.cpp (llama-cpp-2).
