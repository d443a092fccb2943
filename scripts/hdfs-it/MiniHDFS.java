import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import java.io.File;
import java.nio.file.Files;

public class MiniHDFS {
  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    File base = new File(args[1]);
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getAbsolutePath());
    conf.setBoolean("dfs.permissions.enabled", false);
    conf.set("dfs.datanode.hostname", "127.0.0.1");
    conf.setBoolean("dfs.client.use.datanode.hostname", true);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).nameNodePort(port).numDataNodes(1).format(true).build();
    cluster.waitActive();
    Files.write(new File(base, "READY").toPath(), ("hdfs://127.0.0.1:" + port + "\n").getBytes());
    System.out.println("READY hdfs://127.0.0.1:" + port);
    Thread.sleep(Long.MAX_VALUE);
  }
}
