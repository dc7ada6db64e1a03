// The export dialog's print preparation as a user drives it: the steps chosen reach steps()
// (and so the file's header), the spin boxes follow their check boxes, the estimate follows
// decimation and format, and the choices are remembered by the next dialog.
#include "app_test_support.h"
#include "export/mesh_export_dialog.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>
#include <memory>
#include <optional>

namespace isoview::app {
namespace {

using test::saveScreenshot;

constexpr std::uint64_t kTriangles = 1'234'560;

struct DialogUnderTest : test::ShownDialog<MeshExportDialog> {
    DialogUnderTest()
        : ShownDialog(
              std::make_unique<MeshExportDialog>(QDir::tempPath(), "head", true, kTriangles))
    {
    }
    QString estimate() const { return child<QLabel>("estimateLabel")->text(); }
    // The triangle figure of "About 123,456 triangles, ...", group separators dropped.
    std::optional<std::uint64_t> estimatedTriangles() const
    {
        const QString text = estimate();
        const qsizetype end = text.indexOf(" triangles");
        if (!text.startsWith("About ") || end < 0) return std::nullopt;
        QString digits;
        for (QChar c : text.mid(6, end - 6)) {
            if (c.isDigit()) digits += c;
        }
        bool ok = false;
        const qulonglong n = digits.toULongLong(&ok);
        return ok ? std::optional<std::uint64_t>(n) : std::nullopt;
    }
    // Unchecks every preparation step (the settings may hold an earlier test's choices).
    void clearSteps() const
    {
        for (const char* name : {"closeBorders", "keepLargest", "dropSmall", "smooth", "decimate"})
            child<QCheckBox>(name)->setChecked(false);
    }
};

TEST(MeshExportDialogTest, DecimationScalesTheEstimatedTriangles)
{
    DialogUnderTest d;
    d.clearSteps();
    d.child<QComboBox>("format")->setCurrentIndex(0); // PLY
    EXPECT_EQ(d.estimatedTriangles(), kTriangles) << d.estimate().toStdString();
    const QString undecimated = d.estimate();

    auto* percent = d.child<QSpinBox>("decimatePercent");
    EXPECT_FALSE(percent->isEnabled()); // until Decimate is checked
    d.child<QCheckBox>("decimate")->setChecked(true);
    EXPECT_TRUE(percent->isEnabled());
    percent->setValue(10);
    EXPECT_EQ(d.estimatedTriangles(), kTriangles / 10) << d.estimate().toStdString();
    EXPECT_NE(d.estimate(), undecimated);
    EXPECT_EQ(d.dialog->steps().decimateFraction, 0.1);
    saveScreenshot(*d.dialog, "mesh_export_dialog");
}

TEST(MeshExportDialogTest, TheEstimatedSizeFollowsTheFormat)
{
    DialogUnderTest d;
    d.clearSteps();
    auto* format = d.child<QComboBox>("format");
    format->setCurrentIndex(1); // STL: 84 bytes, then 50 a triangle
    EXPECT_EQ(estimateMeshFileBytes(kTriangles, d.dialog->options(), false), 84 + 50 * kTriangles);
    const QString stlSize =
        QLocale().formattedDataSize(qint64(84 + 50 * kTriangles), 1, QLocale::DataSizeSIFormat);
    EXPECT_TRUE(d.estimate().endsWith(stlSize)) << d.estimate().toStdString();

    format->setCurrentIndex(0); // binary PLY: V ~ T/2 vertices of 24 bytes, 13 a triangle
    d.child<QCheckBox>("normals")->setChecked(true);
    const std::uint64_t ply = estimateMeshFileBytes(kTriangles, d.dialog->options(), false);
    EXPECT_NEAR(double(ply), kTriangles / 2.0 * 24 + kTriangles * 13.0, 1000.0);
    EXPECT_FALSE(d.estimate().endsWith(stlSize)) << d.estimate().toStdString();
}

TEST(MeshExportDialogTest, TheStepsChosenAreReturnedAndRemembered)
{
    {
        DialogUnderTest d;
        d.clearSteps();
        EXPECT_FALSE(d.dialog->steps().any());
        d.child<QCheckBox>("closeBorders")->setChecked(true);
        d.child<QCheckBox>("keepLargest")->setChecked(true);
        d.child<QCheckBox>("dropSmall")->setChecked(true);
        d.child<QSpinBox>("dropSmallTriangles")->setValue(500);
        d.child<QCheckBox>("smooth")->setChecked(true);
        d.child<QSpinBox>("smoothIterations")->setValue(5);
        d.child<QCheckBox>("decimate")->setChecked(true);
        d.child<QSpinBox>("decimatePercent")->setValue(25);
        EXPECT_EQ(describeSteps(d.dialog->steps()),
                  "close-borders keep-largest min-component=500 smooth=5 decimate=0.25");
        d.dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        EXPECT_EQ(d.dialog->result(), QDialog::Accepted);
    }
    DialogUnderTest next;
    EXPECT_EQ(describeSteps(next.dialog->steps()),
              "close-borders keep-largest min-component=500 smooth=5 decimate=0.25");
    // Unchecked steps keep their numbers for next time but ask for nothing.
    next.child<QCheckBox>("smooth")->setChecked(false);
    EXPECT_FALSE(next.child<QSpinBox>("smoothIterations")->isEnabled());
    EXPECT_EQ(next.dialog->steps().smoothIterations, 0);
}

} // namespace
} // namespace isoview::app
