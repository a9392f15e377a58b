#include "view_export.h"

#include <QBuffer>
#include <QDateTime>
#include <QFileInfo>
#include <QFontInfo>
#include <QImage>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <qcustomplot.h>

#include "atomic_write.h"

namespace poet::ui {

std::optional<ExportFormat> exportFormatForPath(const QString& path) {
    const QString s = QFileInfo(path).suffix().toLower();
    if (s == QLatin1String("png")) return ExportFormat::Png;
    if (s == QLatin1String("pdf")) return ExportFormat::Pdf;
    if (s == QLatin1String("svg")) return ExportFormat::Svg;
    return std::nullopt;
}

namespace {

// With SOURCE_DATE_EPOCH set (the reproducible-builds convention, which
// matplotlib follows too), a PDF's /CreationDate is that time, so a figure
// made again from the same data is the same file (a paper in git saw every
// PDF change). Qt writes the date as D:yyyyMMddhhmmss then Z or +hh'mm':
// the new date keeps the old one's length, in UTC, so that the file's
// cross-reference offsets still hold.
void pinPdfCreationDate(QByteArray& pdf) {
    bool ok = false;
    const qint64 epoch = qEnvironmentVariable("SOURCE_DATE_EPOCH").toLongLong(&ok);
    if (!ok || epoch < 0) return;
    const QByteArray key = "/CreationDate (D:";
    const qsizetype start = pdf.indexOf(key);
    if (start < 0) return;
    const qsizetype from = start + key.size();
    const qsizetype end = pdf.indexOf(')', from);
    if (end < 0) return;
    const QByteArray stamp = QDateTime::fromSecsSinceEpoch(epoch, Qt::UTC).toString(u"yyyyMMddhhmmss").toLatin1();
    const qsizetype length = end - from;
    QByteArray pinned;
    if (length == stamp.size() + 1) pinned = stamp + "Z";
    else if (length == stamp.size() + 7) pinned = stamp + "+00'00'";
    else return;  // not the form Qt writes: left as it is
    pdf.replace(from, length, pinned);
}

// QSvgGenerator names a text's font as it was asked for: "Sans Serif",
// Qt's alias for the desktop's sans font, which no SVG viewer knows (a
// browser drew the figure in its serif default, Inkscape in its own). Each
// family is named as drawn here (QFontInfo: "DejaVu Sans"), which sized
// the texts, then the generic family for a viewer without it.
QByteArray withDrawnFontFamilies(const QByteArray& svg) {
    static const QRegularExpression familyAttribute(QStringLiteral("font-family=\"([^\"]*)\""));
    QString text = QString::fromUtf8(svg);
    QString out;
    out.reserve(text.size() + text.size() / 16);
    qsizetype copied = 0;
    for (auto it = familyAttribute.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString asked = m.captured(1);
        const QFontInfo drawn{QFont(asked)};
        const QString generic = drawn.fixedPitch() ? QStringLiteral("monospace") : QStringLiteral("sans-serif");
        out += QStringView(text).mid(copied, m.capturedStart() - copied);
        // No family where the machine has no fonts (a headless CLI): the generic alone.
        const QString family = drawn.family().isEmpty() ? generic : drawn.family().toHtmlEscaped() + ", " + generic;
        out += QStringLiteral("font-family=\"%1\"").arg(family);
        copied = m.capturedEnd();
    }
    out += QStringView(text).mid(copied);
    return out.toUtf8();
}

}  // namespace

bool writeFileAtomic(const QString& path, const QByteArray& bytes, QString* error) {
    // The core's writer (atomic_write.h), as every CLI output: QSaveFile
    // replaced a write-protected file where root runs it, and put a plain
    // file where a symbolic link was.
    try {
        writeFileAtomically(path.toStdString(), std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QObject::tr("cannot write %1").arg(QString::fromUtf8(e.what()));
        return false;
    }
}

bool exportView(const ViewRenderer& render, QSizeF size, const QString& path, const QString& title, QString* error,
                double pngScale) {
    const auto fmt = exportFormatForPath(path);
    if (!fmt) {
        if (error) *error = QObject::tr("unknown export format for %1 (use .png, .pdf or .svg)").arg(path);
        return false;
    }
    const QRectF target(QPointF(0, 0), size);
    // PDF and SVG: vectors, no cached pixmaps (QCustomPlot would embed bitmaps).
    auto paintVectors = [&](QPaintDevice* device, const QString& cannot_start) {
        QCPPainter p;
        if (!p.begin(device)) {
            if (error) *error = cannot_start;
            return false;
        }
        p.setMode(QCPPainter::pmVectorized);
        p.setMode(QCPPainter::pmNoCaching);
        p.setRenderHint(QPainter::Antialiasing);
        render(p, target);
        p.end();
        return true;
    };
    QByteArray bytes;
    switch (*fmt) {
    case ExportFormat::Png: {
        QImage img((size * pngScale).toSize(), QImage::Format_ARGB32_Premultiplied);
        img.setDevicePixelRatio(pngScale);
        img.fill(Qt::white);
        {
            QCPPainter p(&img);
            // Pens scale with the image as on paper (QCustomPlot draws
            // width-1 pens cosmetic: 1 px curves beside 4x markers).
            p.setMode(QCPPainter::pmNonCosmetic);
            p.setRenderHint(QPainter::Antialiasing);
            p.setRenderHint(QPainter::TextAntialiasing);
            render(p, target);
        }
        // Its density says the figure's size, as the PDF's page does: at
        // the default 96 dpi a 3x image was placed three times too large
        // (LaTeX, Word size a PNG by it). Set once drawn: a painter sizes
        // point-sized fonts by it, and on top of the pixel ratio every
        // text was drawn pngScale times too large (nine times the area).
        const int dotsPerMeter = qRound(96 * pngScale / 0.0254);
        img.setDotsPerMeterX(dotsPerMeter);
        img.setDotsPerMeterY(dotsPerMeter);
        QBuffer buf(&bytes);
        buf.open(QIODevice::WriteOnly);
        img.setText(QStringLiteral("Title"), title);
        if (!img.save(&buf, "PNG")) {
            if (error) *error = QObject::tr("cannot encode PNG");
            return false;
        }
        break;
    }
    case ExportFormat::Pdf: {
        QBuffer buf(&bytes);
        buf.open(QIODevice::WriteOnly);
        QPdfWriter writer(&buf);
        writer.setResolution(96);
        writer.setTitle(title);
        writer.setCreator(QStringLiteral("POET Explorer"));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / 96.0, size.height() * 72.0 / 96.0),
                                     QPageSize::Point, QString(), QPageSize::ExactMatch));
        if (!paintVectors(&writer, QObject::tr("cannot start the PDF writer"))) return false;
        pinPdfCreationDate(bytes);
        break;
    }
    case ExportFormat::Svg: {
        QBuffer buf(&bytes);
        buf.open(QIODevice::WriteOnly);
        QSvgGenerator gen;
        gen.setOutputDevice(&buf);
        gen.setSize(size.toSize());
        gen.setViewBox(target);
        gen.setResolution(96);
        // Qt writes the title into <title> as it is: a model named "a&b"
        // made an SVG no viewer opens (not well-formed XML).
        gen.setTitle(title.toHtmlEscaped());
        gen.setDescription(QStringLiteral("POET Explorer"));
        if (!paintVectors(&gen, QObject::tr("cannot start the SVG generator"))) return false;
        bytes = withDrawnFontFamilies(bytes);
        break;
    }
    }
    return writeFileAtomic(path, bytes, error);
}

}  // namespace poet::ui
