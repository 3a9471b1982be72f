// Alarms: see README.md, Architecture.
