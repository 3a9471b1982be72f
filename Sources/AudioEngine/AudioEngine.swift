// AudioEngine
