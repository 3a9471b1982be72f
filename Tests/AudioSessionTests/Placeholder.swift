// AudioSessionTests
