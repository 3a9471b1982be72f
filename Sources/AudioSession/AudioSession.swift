// AudioSession: see README.md, Architecture.
