#pragma once
// Exports a view to PNG (3x pixels), PDF or SVG (vectors: the heatmap's cells
// are rectangles, never an embedded image, so colours stay exact). Every
// write is atomic (writeFileAtomic): a failed export never leaves half a file.
#include <QSizeF>
#include <QString>
#include <functional>
#include <optional>

class QPainter;
class QRectF;
class QCPPainter;

namespace poet::ui {

enum class ExportFormat { Png, Pdf, Svg };

// From the file name's suffix (case-insensitive); nothing if unknown.
std::optional<ExportFormat> exportFormatForPath(const QString& path);

// Draws the view into the rectangle. The painter is a QCPPainter so
// QCustomPlot views can draw with it too.
using ViewRenderer = std::function<void(QCPPainter& painter, const QRectF& target)>;

// `size` in logical pixels (1/96 in). PNG is rendered at `pngScale` times that.
// Returns false and fills *error on failure.
bool exportView(const ViewRenderer& render, QSizeF size, const QString& path, const QString& title,
                QString* error, double pngScale = 3.0);

// Writes bytes atomically (atomic_write.h: a link written through, a
// write-protected file refused); false and *error where it cannot.
bool writeFileAtomic(const QString& path, const QByteArray& bytes, QString* error);

}  // namespace poet::ui
