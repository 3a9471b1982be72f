// InterludeCore: see README.md, Architecture.
