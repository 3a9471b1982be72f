print("interlude-bench: not written yet")
