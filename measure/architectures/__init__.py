"""Architectures of the models Rewire measures, built with random weights (no hub access).

Configurations are transcribed from the checkpoints' `config.json` as reported by public
copies (see `shared/research/gpu-facts.md`); random weights are valid for memory and time.
One module a job: `spec` (what an architecture is), one module a kind of model (`esm`,
`encoders`, `decoders`, `long_conv`), `registry` (lookup by key) and `build` (random-weight
models and parameter counts; torch and transformers are imported inside its functions).
"""
