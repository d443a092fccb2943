//go:build !purego

#include "textflag.h"

// quote, the three constants of eqBracket and backslash, each broadcast to all bytes.

DATA  ·masksConsts<>+0x00(SB)/8, $0x2222222222222222
DATA  ·masksConsts<>+0x08(SB)/8, $0xdfdfdfdfdfdfdfdf
DATA  ·masksConsts<>+0x10(SB)/8, $0x0606060606060606
DATA  ·masksConsts<>+0x18(SB)/8, $0x5f5f5f5f5f5f5f5f
DATA  ·masksConsts<>+0x20(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA  ·masksConsts<>+0x28(SB)/8, $0x0404040404040404
GLOBL ·masksConsts<>(SB), RODATA|NOPTR, $48

// func bracketsAVX2(p *byte, n int, in uint64, depth int, br *uint64) (done int, out uint64)
// For each of n 64-byte chunks at p, up to the first holding a backslash: br
// gets a bit per byte outside strings that is one of {}[] or Y y _ DEL (see
// eqBracket). in is all ones when p starts inside a string; out is that for
// the byte after the last chunk done. It also stops after the first chunk
// whose closing brackets ('}' ']' and '_' DEL: bit 2 set) are at least the
// depth open at its start (given for p, then counted), where the container
// may end: the chunks after it would be masked for nothing. The bits inside strings are the prefix
// xor of the quote bits (a carry-less multiply by all ones), as prefixXor
// computes them. Only VEX instructions: a legacy SSE one (MOVQ to an X
// register) here made every call ~20x slower.
TEXT ·bracketsAVX2(SB), NOSPLIT, $0-56
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), CX
	MOVQ         in+16(FP), R9
	MOVQ         depth+24(FP), R11
	MOVQ         br+32(FP), R8
	VPBROADCASTQ ·masksConsts<>+0x00(SB), Y10
	VPBROADCASTQ ·masksConsts<>+0x08(SB), Y11
	VPBROADCASTQ ·masksConsts<>+0x10(SB), Y12
	VPBROADCASTQ ·masksConsts<>+0x18(SB), Y13
	VPBROADCASTQ ·masksConsts<>+0x20(SB), Y14
	VPBROADCASTQ ·masksConsts<>+0x28(SB), Y15
	MOVQ         $-1, AX
	VMOVQ        AX, X9
	XORQ         DX, DX

loop:
	CMPQ       DX, CX
	JEQ        done
	VMOVDQU    (SI), Y0
	VMOVDQU    32(SI), Y1
	VPCMPEQB   Y14, Y0, Y6
	VPCMPEQB   Y14, Y1, Y7
	VPOR       Y6, Y7, Y6
	VPTEST     Y6, Y6
	JNE        done
	VPCMPEQB   Y10, Y0, Y2
	VPCMPEQB   Y10, Y1, Y3
	VPMOVMSKB  Y2, AX
	VPMOVMSKB  Y3, BX
	SHLQ       $32, BX
	ORQ        BX, AX
	VMOVQ      AX, X2
	VPCLMULQDQ $0x00, X9, X2, X2
	VMOVQ      X2, AX
	XORQ       R9, AX
	MOVQ       AX, R9
	SARQ       $63, R9
	VPAND      Y11, Y0, Y4
	VPAND      Y11, Y1, Y5
	VPOR       Y12, Y4, Y4
	VPOR       Y12, Y5, Y5
	VPCMPEQB   Y13, Y4, Y4
	VPCMPEQB   Y13, Y5, Y5
	VPMOVMSKB  Y4, BX
	VPMOVMSKB  Y5, R10
	SHLQ       $32, R10
	ORQ        R10, BX
	NOTQ       AX
	ANDQ       AX, BX
	MOVQ       BX, (R8)
	VPAND      Y15, Y0, Y4
	VPAND      Y15, Y1, Y5
	VPCMPEQB   Y15, Y4, Y4
	VPCMPEQB   Y15, Y5, Y5
	VPMOVMSKB  Y4, AX
	VPMOVMSKB  Y5, R10
	SHLQ       $32, R10
	ORQ        R10, AX
	ANDQ       BX, AX
	POPCNTQ    AX, AX
	POPCNTQ    BX, BX
	ADDQ       $64, SI
	ADDQ       $8, R8
	INCQ       DX
	CMPQ       AX, R11
	JGE        done
	ADDQ       BX, R11
	SUBQ       AX, R11
	SUBQ       AX, R11
	JMP        loop

done:
	MOVQ DX, done+40(FP)
	MOVQ R9, out+48(FP)
	VZEROUPPER
	RET
