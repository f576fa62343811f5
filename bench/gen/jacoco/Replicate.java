import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import org.jacoco.core.data.ExecutionData;
import org.jacoco.core.data.ExecutionDataWriter;
import org.jacoco.core.data.SessionInfo;
import org.jacoco.core.internal.data.CRC64;
import org.jacoco.core.tools.ExecFileLoader;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;

/**
 * Makes N copies of a jar's classes under renamed packages (r1/com/google/..., r2/...) with ASM, and a matching
 * exec file: each copy gets the original run's probe data under its new class id, so JaCoCo's own report over the
 * copies is a genuine JaCoCo XML of any size. Usage: Replicate JAR EXEC COPIES OUTDIR
 */
public final class Replicate {
  public static void main(String[] args) throws IOException {
    File jar = new File(args[0]);
    ExecFileLoader loader = new ExecFileLoader();
    loader.load(new File(args[1]));
    int copies = Integer.parseInt(args[2]);
    File out = new File(args[3]);
    File classesDir = new File(out, "classes");
    classesDir.mkdirs();

    Map<String, byte[]> classes = new HashMap<>();
    try (JarFile in = new JarFile(jar)) {
      for (Enumeration<JarEntry> e = in.entries(); e.hasMoreElements(); ) {
        JarEntry entry = e.nextElement();
        String name = entry.getName();
        if (!name.endsWith(".class") || name.startsWith("META-INF/") || name.endsWith("module-info.class")) continue;
        try (InputStream stream = in.getInputStream(entry)) {
          classes.put(name.substring(0, name.length() - 6), stream.readAllBytes());
        }
      }
    }
    Set<String> names = new HashSet<>(classes.keySet());
    Map<String, ExecutionData> byName = new HashMap<>();
    for (ExecutionData data : loader.getExecutionDataStore().getContents()) byName.put(data.getName(), data);

    try (FileOutputStream execOut = new FileOutputStream(new File(out, "all.exec"))) {
      ExecutionDataWriter writer = new ExecutionDataWriter(execOut);
      for (SessionInfo info : loader.getSessionInfoStore().getInfos()) writer.visitSessionInfo(info);
      for (int copy = 0; copy < copies; copy++) {
        String prefix = copy == 0 ? "" : "r" + copy + "/";
        Remapper remapper = new Remapper() {
          @Override
          public String map(String internalName) {
            return names.contains(internalName) ? prefix + internalName : internalName;
          }
        };
        File target = new File(classesDir, "copy-" + copy + ".jar");
        try (JarOutputStream jarOut = new JarOutputStream(new FileOutputStream(target))) {
          for (Map.Entry<String, byte[]> entry : classes.entrySet()) {
            byte[] bytes = entry.getValue();
            if (copy > 0) {
              ClassWriter cw = new ClassWriter(0);
              new ClassReader(bytes).accept(new ClassRemapper(cw, remapper), 0);
              bytes = cw.toByteArray();
            }
            String newName = prefix + entry.getKey();
            jarOut.putNextEntry(new JarEntry(newName + ".class"));
            jarOut.write(bytes);
            jarOut.closeEntry();
            ExecutionData original = byName.get(entry.getKey());
            if (original != null) {
              writer.visitClassExecution(
                  new ExecutionData(CRC64.classId(bytes), newName, original.getProbes().clone()));
            }
          }
        }
      }
    }
  }
}
