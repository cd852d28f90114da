/*
 * A stand-in for Windows' bcryptprimitives.dll, for running the workspace's
 * Windows test executables under Wine 8, which lacks that DLL.
 *
 * Rust's standard library (1.78 and later) takes its random bytes (the
 * HashMap seeds) from ProcessPrng in bcryptprimitives.dll, documented at
 * https://learn.microsoft.com/windows/win32/seccng/processprng . Wine 9
 * ships it; Wine 8 does not, and every Rust program then fails to start.
 * This DLL exports ProcessPrng over advapi32's RtlGenRandom
 * (SystemFunction036), which Wine has. It is for tests under Wine only:
 * a real Windows has the real DLL, and this one is never shipped.
 *
 * Built by build.sh (x86_64-w64-mingw32-gcc); no binary is committed.
 */
#include <windows.h>

/* RtlGenRandom: advapi32's SystemFunction036, documented at
   https://learn.microsoft.com/windows/win32/api/ntsecapi/nf-ntsecapi-rtlgenrandom */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/* Fills `len` bytes at `data` with random bytes; always TRUE, as the real
   ProcessPrng (which never fails). Larger requests are served in pieces of
   at most ULONG_MAX bytes. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG piece = len > 0xFFFFFFFFu ? 0xFFFFFFFFu : (ULONG)len;
        if (!SystemFunction036(data, piece)) {
            return FALSE;
        }
        data += piece;
        len -= piece;
    }
    return TRUE;
}
