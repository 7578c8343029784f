"""GPU reproductions of Rewire protocols (`rewire measure`).

Imports `rewire_site` models; `rewire_site` never imports this package except to register
the `rewire measure` command group, which imports nothing heavy at import time.
"""
