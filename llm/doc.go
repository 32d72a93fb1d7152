// Package llm is Haven's interface to language models: the Client interface
// every caller uses, and an implementation for any OpenAI-compatible server
// (OpenAI, Ollama, llama.cpp, vLLM). Haven works without a model; callers
// treat a nil Client as "no LLM configured".
//
// llm never imports core, adapters, memory or safety.
package llm
