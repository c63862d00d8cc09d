#include "ui/dialogs/open_corpus_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace cx::ui {

namespace {

const QString kCorpusFormatKey = QStringLiteral("topics.load.format");
const QString kStopWordsKey = QStringLiteral("topics.load.removeStopWords");
const QString kMinDfKey = QStringLiteral("topics.load.minDocumentFrequency");
const QString kMaxVocabularyKey = QStringLiteral("topics.load.maxVocabulary");
const QString kMinTokensKey = QStringLiteral("topics.load.minTokens");
const QString kMaxDfKey = QStringLiteral("topics.load.maxDocumentFraction");
const QString kNumbersKey = QStringLiteral("topics.load.removeNumbers");
const QString kCorpusDirectoryKey = QStringLiteral("topics.load.directory");

} // namespace

OpenCorpusDialog::OpenCorpusDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Open Corpus"));
    setMinimumWidth(560);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);

    auto* pathRow = new QHBoxLayout;
    m_path = new QLineEdit(this);
    m_path->setPlaceholderText(
        tr("A file or folder (Reuters SGML, TSV/CSV, UCI docword, .txt folder)"));
    auto* fileButton = new QPushButton(tr("File…"), this);
    auto* folderButton = new QPushButton(tr("Folder…"), this);
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(fileButton);
    pathRow->addWidget(folderButton);
    auto* pathLabel = new QLabel(tr("&Location:"), this);
    pathLabel->setBuddy(m_path);
    form->addRow(pathLabel, pathRow);

    m_format = new QComboBox(this);
    m_format->addItem(tr("Detect from the name"), static_cast<int>(cx::CorpusFormat::Auto));
    m_format->addItem(tr("Reuters-21578 SGML"), static_cast<int>(cx::CorpusFormat::Reuters));
    m_format->addItem(tr("TSV with a text column and label columns"),
                      static_cast<int>(cx::CorpusFormat::Tsv));
    m_format->addItem(tr("CSV with a text column and label columns"),
                      static_cast<int>(cx::CorpusFormat::Csv));
    m_format->addItem(tr("UCI bag-of-words (docword + vocab)"),
                      static_cast<int>(cx::CorpusFormat::UciBagOfWords));
    m_format->addItem(tr("Folder of .txt files"), static_cast<int>(cx::CorpusFormat::TextFolder));
    form->addRow(tr("&Format:"), m_format);

    m_stopWords = new QCheckBox(tr("Remove English stop words"), this);
    form->addRow(tr("Tokens:"), m_stopWords);
    m_numbers = new QCheckBox(tr("Remove pure numbers (\"1987\", \"000\")"), this);
    m_numbers->setToolTip(tr("Tokens made only of digits; words mixing letters and digits stay"));
    form->addRow(QString(), m_numbers);
    m_minDocumentFrequency = new QSpinBox(this);
    m_minDocumentFrequency->setRange(1, 1000000);
    m_minDocumentFrequency->setSuffix(tr(" documents"));
    m_minDocumentFrequency->setToolTip(tr("Words in fewer documents are dropped"));
    form->addRow(tr("Min. document &frequency:"), m_minDocumentFrequency);
    m_maxDocumentPercent = new QSpinBox(this);
    m_maxDocumentPercent->setRange(1, 100);
    m_maxDocumentPercent->setSuffix(tr(" % of documents"));
    m_maxDocumentPercent->setSpecialValueText(QString());
    m_maxDocumentPercent->setToolTip(tr("Words in more documents than this are dropped as "
                                        "boilerplate (100 % keeps every word)"));
    form->addRow(tr("Max. document f&raction:"), m_maxDocumentPercent);
    m_maxVocabulary = new QSpinBox(this);
    m_maxVocabulary->setRange(0, 10000000);
    // 0 is the reader's size rule (CorpusLoadOptions::capVocabularyAtDocuments), as
    // contrast-cli's --max-vocab 0: not "no limit".
    m_maxVocabulary->setSpecialValueText(tr("automatic (≤ documents read)"));
    m_maxVocabulary->setSingleStep(1000);
    m_maxVocabulary->setToolTip(
        tr("Keep the most frequent words (by document frequency). Automatic: at most one word "
           "per document read (at least %1), since more words than documents add noise faster "
           "than signal; the load report says how many words that drops. Enter a larger number "
           "to keep them (the same as contrast-cli --max-vocab N).")
            .arg(cx::kMinimumVocabularyCap));
    form->addRow(tr("Max. &vocabulary:"), m_maxVocabulary);
    m_minTokens = new QSpinBox(this);
    m_minTokens->setRange(3, 1000000);
    m_minTokens->setSuffix(tr(" tokens"));
    m_minTokens->setToolTip(tr("Shorter documents are skipped and counted in the load report "
                               "(the moment estimators need at least 3)"));
    form->addRow(tr("Min. document &length:"), m_minTokens);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("inlineError"));
    m_problem->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Open);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(fileButton, &QPushButton::clicked, this, &OpenCorpusDialog::browseFile);
    connect(folderButton, &QPushButton::clicked, this, &OpenCorpusDialog::browseFolder);
    connect(m_path, &QLineEdit::textChanged, this, &OpenCorpusDialog::validate);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    setOptions(savedOptions(true));
    validate();
}

QString OpenCorpusDialog::path() const {
    return m_path->text().trimmed();
}

void OpenCorpusDialog::setPath(const QString& path) {
    m_path->setText(path);
}

cx::CorpusLoadOptions OpenCorpusDialog::options() const {
    cx::CorpusLoadOptions options;
    options.format = static_cast<cx::CorpusFormat>(m_format->currentData().toInt());
    options.removeStopWords = m_stopWords->isChecked();
    options.minDocumentFrequency = m_minDocumentFrequency->value();
    options.maxVocabulary = m_maxVocabulary->value();
    options.minTokens = m_minTokens->value();
    options.removeNumbers = m_numbers->isChecked();
    options.maxDocumentFraction = m_maxDocumentPercent->value() / 100.0;
    return options;
}

void OpenCorpusDialog::setOptions(const cx::CorpusLoadOptions& options) {
    m_format->setCurrentIndex(std::max(0, m_format->findData(static_cast<int>(options.format))));
    m_stopWords->setChecked(options.removeStopWords);
    m_minDocumentFrequency->setValue(static_cast<int>(options.minDocumentFrequency));
    m_maxVocabulary->setValue(static_cast<int>(options.maxVocabulary));
    m_minTokens->setValue(static_cast<int>(std::max<std::int64_t>(3, options.minTokens)));
    m_numbers->setChecked(options.removeNumbers);
    m_maxDocumentPercent->setValue(
        std::clamp(static_cast<int>(std::lround(options.maxDocumentFraction * 100.0)), 1, 100));
}

cx::CorpusLoadOptions OpenCorpusDialog::savedOptions(bool keepFormat) {
    QSettings settings;
    cx::CorpusLoadOptions options;
    if (keepFormat) {
        options.format = static_cast<cx::CorpusFormat>(
            settings.value(kCorpusFormatKey, static_cast<int>(options.format)).toInt());
    }
    options.removeStopWords = settings.value(kStopWordsKey, options.removeStopWords).toBool();
    options.minDocumentFrequency =
        settings.value(kMinDfKey, qint64(options.minDocumentFrequency)).toLongLong();
    options.maxVocabulary =
        settings.value(kMaxVocabularyKey, qint64(options.maxVocabulary)).toLongLong();
    options.minTokens =
        std::max<qint64>(3, settings.value(kMinTokensKey, qint64(options.minTokens)).toLongLong());
    options.removeNumbers = settings.value(kNumbersKey, options.removeNumbers).toBool();
    options.maxDocumentFraction =
        std::clamp(settings.value(kMaxDfKey, options.maxDocumentFraction).toDouble(), 0.01, 1.0);
    return options;
}

void OpenCorpusDialog::saveOptions(const cx::CorpusLoadOptions& options) {
    QSettings settings;
    settings.setValue(kCorpusFormatKey, static_cast<int>(options.format));
    settings.setValue(kStopWordsKey, options.removeStopWords);
    settings.setValue(kMinDfKey, qint64(options.minDocumentFrequency));
    settings.setValue(kMaxVocabularyKey, qint64(options.maxVocabulary));
    settings.setValue(kMinTokensKey, qint64(options.minTokens));
    settings.setValue(kNumbersKey, options.removeNumbers);
    settings.setValue(kMaxDfKey, options.maxDocumentFraction);
}

void OpenCorpusDialog::browseFile() {
    const QString start =
        path().isEmpty() ? QSettings().value(kCorpusDirectoryKey).toString() : path();
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Open Corpus File"), start,
        tr("Corpora (*.sgm *.sgm.gz *.tsv *.tsv.gz *.csv *.csv.gz *.txt *.txt.gz);;All files (*)"));
    if (!file.isEmpty()) {
        m_path->setText(file);
        QSettings().setValue(kCorpusDirectoryKey, QFileInfo(file).absolutePath());
    }
}

void OpenCorpusDialog::browseFolder() {
    const QString start =
        path().isEmpty() ? QSettings().value(kCorpusDirectoryKey).toString() : path();
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open Corpus Folder"), start);
    if (!folder.isEmpty()) {
        m_path->setText(folder);
        QSettings().setValue(kCorpusDirectoryKey, folder);
    }
}

void OpenCorpusDialog::validate() {
    const QString text = path();
    QString problem;
    if (!text.isEmpty() && !QFileInfo::exists(text) && !text.contains(QLatin1Char(','))) {
        problem = tr("%1: no such file or folder").arg(text);
    }
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_ok->setEnabled(!text.isEmpty() && problem.isEmpty());
}

} // namespace cx::ui
