// HudiKeys writes assets/hudi_config_keys.json: every ConfigProperty the given Hudi bundles
// declare, per release line, read by reflection from the bundles themselves so the table is
// what each release really accepts rather than what its docs say.
//
// Usage (run.sh does this): java -cp <spark and hadoop jars> HudiKeys.java OUT.json
//     LINE=VERSION=BUNDLE=JAR ...
//
// Each bundle gets its own class loader; the Spark/Hadoop jars on the class path are only
// there so config classes that mention them can initialize. Nothing is instantiated: static
// fields are read (which runs static initializers), and Scala objects are read through their
// MODULE$ singleton, which is how DataSourceWriteOptions and friends hold their keys.
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

public class HudiKeys {
  static final String CP = "org.apache.hudi.common.config.ConfigProperty";
  // A class holding a ConfigProperty field has this descriptor in its constant pool; scanning
  // bytes first avoids loading the tens of thousands of classes that cannot hold one.
  static final byte[] DESC = ("L" + CP.replace('.', '/') + ";").getBytes(StandardCharsets.UTF_8);

  /** One key as one release declares it. */
  static final class Rec {
    String def = "";
    boolean hasDef;
    List<String> alts = new ArrayList<>();
    String since = "";
    String deprecated = ""; // deprecatedAfter version, or "field" when only @Deprecated marks it
    boolean inferred;
    String defNote = ""; // getDocOnDefaultValue, when the default is computed
    TreeSet<String> classes = new TreeSet<>();
    TreeSet<String> otherDefaults = new TreeSet<>();

    String json() {
      StringBuilder b = new StringBuilder();
      if (hasDef) {
        b.append(",\"d\":").append(q(def));
      }
      if (!alts.isEmpty()) {
        b.append(",\"alt\":").append(arr(alts));
      }
      if (!since.isEmpty()) {
        b.append(",\"since\":").append(q(since));
      }
      if (!deprecated.isEmpty()) {
        b.append(",\"dep\":").append(q(deprecated));
      }
      if (inferred) {
        b.append(",\"inf\":true");
      }
      if (!defNote.isEmpty()) {
        b.append(",\"dn\":").append(q(defNote));
      }
      if (!otherDefaults.isEmpty()) {
        b.append(",\"od\":").append(arr(otherDefaults));
      }
      b.append(",\"cls\":").append(arr(classes));
      return b.toString();
    }
  }

  static final class Release {
    String line, version, bundle;
    int tableVersion = -1;
    int candidates, loaded, skipped;
    List<String> skippedNames = new ArrayList<>();
    TreeMap<String, Rec> keys = new TreeMap<>();
    // fieldDeprecated[key] stays true only while every field declaring the key is @Deprecated.
    Map<String, Boolean> fieldDeprecated = new TreeMap<>();
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: HudiKeys OUT.json LINE=VERSION=BUNDLE=JAR ...");
      System.exit(2);
    }
    List<Release> rels = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      String[] p = args[i].split("=", 4);
      Release r = new Release();
      r.line = p[0];
      r.version = p[1];
      r.bundle = p[2];
      scan(r, Path.of(p[3]));
      System.err.printf("%s (%s %s): %d keys, table version %d; %d candidate classes, %d skipped%n",
          r.line, r.bundle, r.version, r.keys.size(), r.tableVersion, r.candidates, r.skipped);
      for (String s : r.skippedNames) {
        System.err.println("  skipped " + s);
      }
      rels.add(r);
    }
    Files.writeString(Path.of(args[0]), render(rels));
  }

  static void scan(Release r, Path jar) throws Exception {
    // Quiet the static initializers that log through log4j/slf4j while the bundle loads.
    PrintStream out = System.out;
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    try (JarFile jf = new JarFile(jar.toFile());
        URLClassLoader cl = new URLClassLoader(new URL[] {jar.toUri().toURL()}, HudiKeys.class.getClassLoader())) {
      Class<?> cpClass = cl.loadClass(CP);
      r.tableVersion = tableVersion(cl);
      Enumeration<JarEntry> en = jf.entries();
      List<String> names = new ArrayList<>();
      while (en.hasMoreElements()) {
        JarEntry e = en.nextElement();
        String n = e.getName();
        if (!n.endsWith(".class") || !n.startsWith("org/apache/hudi/") || n.contains("-")) {
          continue;
        }
        if (contains(read(jf, e), DESC)) {
          names.add(n.substring(0, n.length() - 6).replace('/', '.'));
        }
      }
      names.sort(null);
      for (String n : names) {
        r.candidates++;
        try {
          Class<?> c = Class.forName(n, false, cl);
          collect(r, c, cpClass);
          r.loaded++;
        } catch (Throwable t) {
          r.skipped++;
          r.skippedNames.add(n + ": " + t.getClass().getSimpleName() + " " + Objects.toString(t.getMessage(), ""));
        }
      }
    } finally {
      System.setOut(out);
    }
    for (Map.Entry<String, Boolean> e : r.fieldDeprecated.entrySet()) {
      Rec rec = r.keys.get(e.getKey());
      if (e.getValue() && rec.deprecated.isEmpty()) {
        rec.deprecated = "field";
      }
    }
  }

  static int tableVersion(ClassLoader cl) {
    try {
      Class<?> tv = cl.loadClass("org.apache.hudi.common.table.HoodieTableVersion");
      Object cur = tv.getMethod("current").invoke(null);
      return (Integer) tv.getMethod("versionCode").invoke(cur);
    } catch (Throwable t) {
      return -1;
    }
  }

  static void collect(Release r, Class<?> c, Class<?> cpClass) throws Exception {
    Object module = null;
    boolean scalaObject = false;
    for (Field f : c.getDeclaredFields()) {
      if (f.getName().equals("MODULE$") && Modifier.isStatic(f.getModifiers())) {
        scalaObject = true;
      }
    }
    for (Field f : c.getDeclaredFields()) {
      if (!cpClass.isAssignableFrom(f.getType())) {
        continue;
      }
      boolean isStatic = Modifier.isStatic(f.getModifiers());
      if (!isStatic && !scalaObject) {
        continue; // an instance field of an ordinary class: would need an instance
      }
      f.setAccessible(true);
      Object target = null;
      if (!isStatic) {
        if (module == null) {
          Field m = c.getDeclaredField("MODULE$");
          m.setAccessible(true);
          module = m.get(null);
        }
        target = module;
      }
      Object prop = f.get(target);
      if (prop == null) {
        continue;
      }
      add(r, prop, c.getName(), f.isAnnotationPresent(Deprecated.class) || deprecatedAccessor(c, f));
    }
  }

  // Scala puts @deprecated on the accessor, not on the field behind a val.
  static boolean deprecatedAccessor(Class<?> c, Field f) {
    try {
      return c.getDeclaredMethod(f.getName()).isAnnotationPresent(Deprecated.class);
    } catch (Throwable t) {
      return false;
    }
  }

  static void add(Release r, Object p, String cls, boolean fieldDeprecated) throws Exception {
    String key = (String) call(p, "key");
    if (key == null || key.isEmpty()) {
      return;
    }
    Rec rec = new Rec();
    Object hd = call(p, "hasDefaultValue");
    rec.hasDef = hd != null && (Boolean) hd;
    if (rec.hasDef) {
      rec.def = str(call(p, "defaultValue"));
    }
    Object alts = call(p, "getAlternatives");
    if (alts instanceof Collection) {
      for (Object a : (Collection<?>) alts) {
        rec.alts.add(String.valueOf(a));
      }
    }
    rec.since = opt(call(p, "getSinceVersion"));
    rec.deprecated = opt(call(p, "getDeprecatedVersion"));
    Object inf = call(p, "hasInferFunction");
    if (inf != null) {
      rec.inferred = (Boolean) inf;
    } else {
      rec.inferred = !opt(field(p, "inferFunction")).isEmpty();
    }
    Object dn = call(p, "getDocOnDefaultValue");
    if (dn != null && !rec.hasDef) {
      rec.defNote = String.valueOf(dn).trim();
    }
    rec.classes.add(cls);
    Rec old = r.keys.get(key);
    if (old == null) {
      r.keys.put(key, rec);
      r.fieldDeprecated.put(key, fieldDeprecated);
      return;
    }
    old.classes.add(cls);
    r.fieldDeprecated.put(key, r.fieldDeprecated.get(key) && fieldDeprecated);
    // The same key declared twice (a datasource option re-exporting a writer config, say): keep
    // the first, note a different default so nobody trusts one blindly.
    if (old.hasDef != rec.hasDef || !old.def.equals(rec.def)) {
      old.otherDefaults.add(rec.hasDef ? rec.def : "(none)");
    }
    for (String a : rec.alts) {
      if (!old.alts.contains(a)) {
        old.alts.add(a);
      }
    }
    old.inferred |= rec.inferred;
    if (old.since.isEmpty()) {
      old.since = rec.since;
    }
    if (old.deprecated.isEmpty()) {
      old.deprecated = rec.deprecated;
    }
  }

  static Object call(Object o, String name) {
    try {
      Method m = o.getClass().getMethod(name);
      return m.invoke(o);
    } catch (NoSuchMethodException e) {
      return null;
    } catch (Exception e) {
      throw new RuntimeException(name + ": " + e, e);
    }
  }

  static Object field(Object o, String name) {
    try {
      Field f = o.getClass().getDeclaredField(name);
      f.setAccessible(true);
      return f.get(o);
    } catch (Exception e) {
      return null;
    }
  }

  /** The value of a Hudi Option, or "" when empty or absent. */
  static String opt(Object o) {
    if (o == null) {
      return "";
    }
    Object present = call(o, "isPresent");
    if (present == null || !(Boolean) present) {
      return "";
    }
    Object v = call(o, "get");
    return v instanceof String ? (String) v : "present";
  }

  static String str(Object v) {
    if (v == null) {
      return "";
    }
    if (v instanceof Enum) {
      // HoodieTableVersion is written to hoodie.properties as its number, not its name.
      try {
        return String.valueOf(v.getClass().getMethod("versionCode").invoke(v));
      } catch (ReflectiveOperationException e) {
        return ((Enum<?>) v).name();
      }
    }
    return String.valueOf(v);
  }

  static byte[] read(JarFile jf, JarEntry e) throws IOException {
    try (InputStream in = jf.getInputStream(e)) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      in.transferTo(b);
      return b.toByteArray();
    }
  }

  static boolean contains(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  // render groups each key's per-release records into variants: one entry per distinct record,
  // with "r" the bit set of the releases (bit i = releases[i]) that declare it that way.
  static String render(List<Release> rels) {
    TreeSet<String> all = new TreeSet<>();
    for (Release r : rels) {
      all.addAll(r.keys.keySet());
    }
    StringBuilder b = new StringBuilder();
    b.append("{\n\"_source\":").append(q(
        "Generated by scripts/hudi-keys/run.sh: every static ConfigProperty field (and every "
            + "ConfigProperty val of a Scala object) of the org.apache.hudi classes of each release's "
            + "Spark bundle, read by reflection. keys[k] lists variants; r is a bit set over releases "
            + "(bit i = releases[i]); d the default (absent: no default); alt the alternative keys; since "
            + "and dep the since/deprecatedAfter versions (dep \"field\": only @Deprecated); inf: an "
            + "infer function may compute the value; dn the doc of a computed default; od other defaults "
            + "another declaration of the same key carries; cls the declaring classes."));
    b.append(",\n\"releases\":[");
    for (int i = 0; i < rels.size(); i++) {
      Release r = rels.get(i);
      b.append(i == 0 ? "\n" : ",\n");
      b.append("{\"line\":").append(q(r.line)).append(",\"version\":").append(q(r.version))
          .append(",\"bundle\":").append(q(r.bundle)).append(",\"tableVersion\":").append(r.tableVersion)
          .append(",\"keys\":").append(r.keys.size()).append(",\"classes\":").append(r.loaded)
          .append(",\"skippedClasses\":").append(r.skipped).append("}");
    }
    b.append("\n],\n\"keys\":{");
    boolean first = true;
    for (String k : all) {
      LinkedHashMap<String, Integer> variants = new LinkedHashMap<>();
      for (int i = 0; i < rels.size(); i++) {
        Rec rec = rels.get(i).keys.get(k);
        if (rec != null) {
          variants.merge(rec.json(), 1 << i, (a, c) -> a | c);
        }
      }
      b.append(first ? "\n" : ",\n").append(q(k)).append(":[");
      first = false;
      boolean vf = true;
      for (Map.Entry<String, Integer> v : variants.entrySet()) {
        b.append(vf ? "" : ",").append("{\"r\":").append(v.getValue()).append(v.getKey()).append("}");
        vf = false;
      }
      b.append("]");
    }
    b.append("\n}\n}\n");
    return b.toString();
  }

  static String arr(Collection<String> xs) {
    StringBuilder b = new StringBuilder("[");
    for (String x : xs) {
      if (b.length() > 1) {
        b.append(",");
      }
      b.append(q(x));
    }
    return b.append("]").toString();
  }

  static String q(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char ch : s.toCharArray()) {
      switch (ch) {
        case '"': b.append("\\\""); break;
        case '\\': b.append("\\\\"); break;
        case '\n': b.append("\\n"); break;
        case '\r': b.append("\\r"); break;
        case '\t': b.append("\\t"); break;
        default:
          if (ch < 0x20 || ch > 0x7e) {
            b.append(String.format("\\u%04x", (int) ch));
          } else {
            b.append(ch);
          }
      }
    }
    return b.append("\"").toString();
  }
}
