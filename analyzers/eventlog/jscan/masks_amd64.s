//go:build !purego

#include "textflag.h"

// quote, the three constants of eqBracket and backslash, each broadcast to all bytes.

DATA  ·masksConsts<>+0x00(SB)/8, $0x2222222222222222
DATA  ·masksConsts<>+0x08(SB)/8, $0xdfdfdfdfdfdfdfdf
DATA  ·masksConsts<>+0x10(SB)/8, $0x0606060606060606
DATA  ·masksConsts<>+0x18(SB)/8, $0x5f5f5f5f5f5f5f5f
DATA  ·masksConsts<>+0x20(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL ·masksConsts<>(SB), RODATA|NOPTR, $40

// func masksAVX2(p *byte, n int, q *uint64, br *uint64) int
// For each of n 64-byte chunks at p, up to the first holding a backslash: q
// gets a bit per '"', br a bit per byte that is one of {}[] or Y y _ DEL (see
// eqBracket). It returns the number of chunks done. Only VEX instructions: a
// legacy SSE one (MOVQ to an X register) here made every call ~20x slower.
TEXT ·masksAVX2(SB), NOSPLIT, $0-40
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ q+16(FP), DI
	MOVQ br+24(FP), R8
	VPBROADCASTQ ·masksConsts<>+0x00(SB), Y10
	VPBROADCASTQ ·masksConsts<>+0x08(SB), Y11
	VPBROADCASTQ ·masksConsts<>+0x10(SB), Y12
	VPBROADCASTQ ·masksConsts<>+0x18(SB), Y13
	VPBROADCASTQ ·masksConsts<>+0x20(SB), Y14
	XORQ         DX, DX

loop:
	CMPQ DX, CX
	JEQ  done
	VMOVDQU   (SI), Y0
	VMOVDQU   32(SI), Y1
	VPCMPEQB  Y14, Y0, Y6
	VPCMPEQB  Y14, Y1, Y7
	VPOR      Y6, Y7, Y6
	VPTEST    Y6, Y6
	JNE       done
	VPCMPEQB  Y10, Y0, Y2
	VPCMPEQB  Y10, Y1, Y3
	VPMOVMSKB Y2, AX
	VPMOVMSKB Y3, BX
	SHLQ      $32, BX
	ORQ       BX, AX
	MOVQ      AX, (DI)
	VPAND     Y11, Y0, Y4
	VPAND     Y11, Y1, Y5
	VPOR      Y12, Y4, Y4
	VPOR      Y12, Y5, Y5
	VPCMPEQB  Y13, Y4, Y4
	VPCMPEQB  Y13, Y5, Y5
	VPMOVMSKB Y4, AX
	VPMOVMSKB Y5, BX
	SHLQ      $32, BX
	ORQ       BX, AX
	MOVQ      AX, (R8)
	ADDQ      $64, SI
	ADDQ      $8, DI
	ADDQ      $8, R8
	INCQ      DX
	JMP       loop

done:
	MOVQ DX, ret+32(FP)
	VZEROUPPER
	RET
