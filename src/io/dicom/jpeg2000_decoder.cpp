#include "io/dicom/jpeg2000_decoder.h"

#include "core/error.h"
#include "core/log.h"
#include "io/dicom/dicom_common.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <openjpeg.h>
#include <string>

namespace isoview::io::dicom {
namespace {

struct OpjMemory {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
    std::size_t offset = 0;
};

OPJ_SIZE_T opjRead(void* target, OPJ_SIZE_T count, void* user)
{
    auto* memory = static_cast<OpjMemory*>(user);
    if (memory->offset >= memory->size) return OPJ_SIZE_T(-1);
    const std::size_t n = std::min<std::size_t>(count, memory->size - memory->offset);
    std::memcpy(target, memory->data + memory->offset, n);
    memory->offset += n;
    return n;
}

OPJ_OFF_T opjSkip(OPJ_OFF_T count, void* user)
{
    auto* memory = static_cast<OpjMemory*>(user);
    if (count < 0) {
        const std::size_t back = std::min<std::size_t>(std::size_t(-count), memory->offset);
        memory->offset -= back;
        return -OPJ_OFF_T(back);
    }
    const std::size_t n = std::min<std::size_t>(std::size_t(count), memory->size - memory->offset);
    memory->offset += n;
    return OPJ_OFF_T(n);
}

OPJ_BOOL opjSeek(OPJ_OFF_T position, void* user)
{
    auto* memory = static_cast<OpjMemory*>(user);
    if (position < 0 || std::uint64_t(position) > memory->size) return OPJ_FALSE;
    memory->offset = std::size_t(position);
    return OPJ_TRUE;
}

// opj_codec_t and opj_stream_t are both void*, so each needs a deleter type of its own.
struct OpjCodecDeleter {
    void operator()(opj_codec_t* codec) const { opj_destroy_codec(codec); }
};
struct OpjStreamDeleter {
    void operator()(opj_stream_t* stream) const { opj_stream_destroy(stream); }
};
struct OpjImageDeleter {
    void operator()(opj_image_t* image) const { opj_image_destroy(image); }
};

bool isJp2File(std::span<const std::uint8_t> bytes)
{
    static constexpr std::uint8_t signature[] = {0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50,
                                                 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A};
    return bytes.size() >= sizeof signature &&
           std::memcmp(bytes.data(), signature, sizeof signature) == 0;
}

} // namespace

bool startsJ2kCodestream(std::span<const std::uint8_t> bytes)
{
    return (bytes.size() >= 4 && bytes[0] == 0xFF && bytes[1] == 0x4F && bytes[2] == 0xFF &&
            bytes[3] == 0x51) ||
           isJp2File(bytes);
}

// Decodes one JPEG 2000 codestream (or JP2 file) of a greyscale frame into raw sample words
// of bitsAllocated bits; the integers keep their two's complement bits, which the stored-value
// extraction then reads with the DICOM PixelRepresentation.
void decodeJpeg2000(std::span<const std::uint8_t> code, const DicomHeader& h, std::uint32_t frame,
                    std::span<std::uint8_t> out)
{
    const std::string what = h.name + " frame " + std::to_string(frame + 1) + " (JPEG 2000)";
    std::string errors;
    const auto onError = [](const char* message, void* user) {
        static_cast<std::string*>(user)->append(trim(message) + "; ");
    };
    const auto quiet = [](const char* message, void*) {
        log::get("io")->debug("openjpeg: {}", trim(message));
    };

    std::unique_ptr<opj_codec_t, OpjCodecDeleter> codec(
        opj_create_decompress(isJp2File(code) ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K));
    if (!codec) throw IoError(what + ": OpenJPEG could not create a decoder");
    opj_set_error_handler(codec.get(), onError, &errors);
    opj_set_warning_handler(codec.get(), quiet, nullptr);
    opj_set_info_handler(codec.get(), quiet, nullptr);
    opj_dparameters_t parameters;
    opj_set_default_decoder_parameters(&parameters);
    if (!opj_setup_decoder(codec.get(), &parameters)) {
        throw IoError(what + ": OpenJPEG rejected the decoder set-up: " + errors);
    }

    OpjMemory memory{code.data(), code.size(), 0};
    std::unique_ptr<opj_stream_t, OpjStreamDeleter> stream(opj_stream_create(1 << 16, OPJ_TRUE));
    if (!stream) throw IoError(what + ": OpenJPEG could not create a stream");
    opj_stream_set_user_data(stream.get(), &memory, nullptr);
    opj_stream_set_user_data_length(stream.get(), code.size());
    opj_stream_set_read_function(stream.get(), opjRead);
    opj_stream_set_skip_function(stream.get(), opjSkip);
    opj_stream_set_seek_function(stream.get(), opjSeek);

    opj_image_t* rawImage = nullptr;
    const bool headerRead = opj_read_header(stream.get(), codec.get(), &rawImage);
    std::unique_ptr<opj_image_t, OpjImageDeleter> image(rawImage);
    if (!headerRead || !image) {
        throw IoError(what + ": cannot read the codestream header: " + errors);
    }
    if (!opj_decode(codec.get(), stream.get(), image.get()) ||
        !opj_end_decompress(codec.get(), stream.get())) {
        throw IoError(what + ": decoding failed: " + errors);
    }
    if (image->numcomps != 1) {
        throw InvalidInputError(what + ": the codestream has " + std::to_string(image->numcomps) +
                                " components; isoview loads greyscale images");
    }
    const opj_image_comp_t& component = image->comps[0];
    if (component.w != h.columns || component.h != h.rows || component.data == nullptr) {
        throw IoError(what + ": the codestream is " + std::to_string(component.w) + "x" +
                      std::to_string(component.h) + ", the DICOM header says " +
                      std::to_string(h.columns) + "x" + std::to_string(h.rows));
    }
    const std::size_t count = std::size_t(h.rows) * h.columns;
    const std::size_t wordBytes = h.bitsAllocated / 8;
    for (std::size_t i = 0; i < count; ++i) {
        const auto bits = std::uint32_t(component.data[i]);
        if (wordBytes == 1) {
            out[i] = std::uint8_t(bits);
        } else if (wordBytes == 2) {
            const auto word = std::uint16_t(bits);
            std::memcpy(out.data() + 2 * i, &word, 2);
        } else {
            std::memcpy(out.data() + 4 * i, &bits, 4);
        }
    }
}

} // namespace isoview::io::dicom
