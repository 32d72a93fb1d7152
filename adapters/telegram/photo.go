package telegram

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // photoCheck reads JPEG headers
	_ "image/png"  // and PNG headers
	"mime"
	"net/http"
	"regexp"
	"strings"

	"github.com/havenbot/haven/channels"
)

// Telegram's limits on a photo (sendPhoto): at most 10 MB, read as
// 10,000,000 bytes, the stricter reading; width and height adding up to at
// most 10,000 pixels; the longer side at most 20 times the shorter.
const (
	maxPhotoSize  = 10_000_000
	maxPhotoSides = 10000
	maxPhotoRatio = 20
)

// photoCheck reports why f cannot go as a photo, or nil when it can: its
// ContentType must be image/png or image/jpeg, and its data must decode
// (image.DecodeConfig: the header only) as a PNG or JPEG within Telegram's
// photo limits. The file's name is not looked at.
func photoCheck(f *channels.File) error {
	mt, _, err := mime.ParseMediaType(f.ContentType)
	if err != nil || (mt != "image/png" && mt != "image/jpeg") {
		return fmt.Errorf("content type %q is not image/png or image/jpeg", f.ContentType)
	}
	if len(f.Data) > maxPhotoSize {
		return fmt.Errorf("%s is over Telegram's photo limit of %s", channels.FormatSize(len(f.Data)), channels.FormatSize(maxPhotoSize))
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(f.Data))
	if err != nil {
		return fmt.Errorf("read the image header: %w", err)
	}
	if format != "png" && format != "jpeg" {
		return fmt.Errorf("the data is %s, not PNG or JPEG", format)
	}
	w, h := cfg.Width, cfg.Height
	switch {
	case w <= 0 || h <= 0:
		return fmt.Errorf("the image is %dx%d pixels", w, h)
	case w+h > maxPhotoSides:
		return fmt.Errorf("the image's %dx%d pixels add up to over Telegram's %d", w, h, maxPhotoSides)
	case w > maxPhotoRatio*h || h > maxPhotoRatio*w:
		return fmt.Errorf("the image's %dx%d pixels are over Telegram's side ratio of %d", w, h, maxPhotoRatio)
	}
	return nil
}

// photoErrorRE matches the name of a Bot API error about the photo itself
// (PHOTO_INVALID_DIMENSIONS, PHOTO_SAVE_FILE_INVALID, PHOTO_EXT_INVALID,
// IMAGE_PROCESS_FAILED, ...), as Telegram puts it in its description.
var photoErrorRE = regexp.MustCompile(`\b(?:PHOTO|IMAGE)_[A-Z_]+\b`)

// photoRefused returns the name of the error when err is Telegram refusing
// a photo for what it is (a 400 naming the photo), "" otherwise. The name
// holds nothing a person wrote, so it may be logged.
func photoRefused(err error) string {
	te := apiError(err)
	if te == nil || te.Code != http.StatusBadRequest || strings.Contains(te.Message, "can't parse entities") {
		// An entities error may quote the caption.
		return ""
	}
	return photoErrorRE.FindString(te.Message)
}
