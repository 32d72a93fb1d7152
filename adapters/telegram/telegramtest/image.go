package telegramtest

import (
	"encoding/binary"
	"hash/crc32"
)

// PNGHeader returns the start of a PNG image of width x height pixels: the
// signature and the IHDR chunk (8-bit greyscale), with its CRC. That is
// all image.DecodeConfig reads, so it stands for an image of any size
// without encoding one; it is not a whole image (image.Decode fails on it).
func PNGHeader(width, height uint32) []byte {
	b := []byte("\x89PNG\r\n\x1a\n")
	b = binary.BigEndian.AppendUint32(b, 13)
	chunk := []byte("IHDR")
	chunk = binary.BigEndian.AppendUint32(chunk, width)
	chunk = binary.BigEndian.AppendUint32(chunk, height)
	chunk = append(chunk, 8, 0, 0, 0, 0) // depth 8, greyscale, deflate, adaptive filter, no interlace
	b = append(b, chunk...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(chunk))
}
