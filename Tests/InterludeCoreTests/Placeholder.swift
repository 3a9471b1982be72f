// InterludeCoreTests
