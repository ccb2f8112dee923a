"""The floor gate where agent frameworks compact: a LangChain agent middleware
(`sim.runtime.adapters.langchain`) and an Inspect compaction strategy
(`sim.runtime.adapters.inspect`). Each imports its framework, so this package imports
neither: `import sim.runtime.floor_gate` never loads LangChain or Inspect.
Install them with `pip install 'compaction-sim[integrations]'`.
"""
