// libebur128: EBU R 128 loudness (integrated loudness, sample and true peak).
#include <stddef.h>
#include <ebur128.h>
