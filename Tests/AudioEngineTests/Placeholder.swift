// AudioEngineTests
