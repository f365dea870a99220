#ifndef PUSHRELAY_CLZ4_SHIM_H
#define PUSHRELAY_CLZ4_SHIM_H
#include <lz4.h>
#endif
