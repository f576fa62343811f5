import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IBundleCoverage;
import org.jacoco.core.tools.ExecFileLoader;
import org.jacoco.report.IReportVisitor;
import org.jacoco.report.ISourceFileLocator;
import org.jacoco.report.xml.XMLFormatter;

/** JaCoCo's own XML report generation (what jacococli report / jacoco:report do). Usage: Report EXEC CLASSES OUT.xml */
public final class Report {
  public static void main(String[] args) throws IOException {
    long start = System.nanoTime();
    ExecFileLoader loader = new ExecFileLoader();
    loader.load(new File(args[0]));
    CoverageBuilder builder = new CoverageBuilder();
    new Analyzer(loader.getExecutionDataStore(), builder).analyzeAll(new File(args[1]));
    IBundleCoverage bundle = builder.getBundle("guava");
    try (OutputStream out = new FileOutputStream(args[2])) {
      IReportVisitor visitor = new XMLFormatter().createVisitor(out);
      visitor.visitInfo(loader.getSessionInfoStore().getInfos(), loader.getExecutionDataStore().getContents());
      visitor.visitBundle(bundle, new ISourceFileLocator() {
        @Override
        public Reader getSourceFile(String packageName, String fileName) {
          return null;
        }

        @Override
        public int getTabWidth() {
          return 4;
        }
      });
      visitor.visitEnd();
    }
    System.out.printf("report: %d classes in %.2f s%n", bundle.getClassCounter().getTotalCount(),
        (System.nanoTime() - start) / 1e9);
  }
}
